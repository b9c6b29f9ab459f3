package dev.mcpx.client.internal.recovery;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpHttpStatusException;
import dev.mcpx.client.error.McpSessionExpiredException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpReissueRefusedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpSessionExpiredEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.event.McpStreamResumedEvent;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.internal.catalogue.Catalogue;
import dev.mcpx.client.internal.events.McpEvents;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.StreamLost;
import dev.mcpx.client.internal.transport.Resumption;
import dev.mcpx.client.internal.transport.SessionGoneException;
import dev.mcpx.client.internal.transport.StreamBrokenException;
import dev.mcpx.client.model.Tool;
import dev.mcpx.client.model.ToolAnnotations;
import dev.mcpx.client.recovery.DefaultReplayGate;
import dev.mcpx.client.recovery.RecoveryPolicy;
import tools.jackson.databind.node.JsonNodeFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The recovery loop and its rules against a session without a server: what each failure
 * is followed by, in the exact order of what the server would have received and of the
 * events, and the bound that no sequence of failures can exceed.
 */
class RecoveringExecutorTest {

	private static final String UPSTREAM = "fake";

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	private final Catalogue catalogue = new Catalogue(UPSTREAM, Duration.ofMinutes(5), Clock.systemUTC(),
			new McpEvents(List.of()));

	private RecoveringExecutor executor(FakeSession session, RecoveryPolicy policy) {
		return new RecoveringExecutor(UPSTREAM, session, policy, new DefaultReplayGate(policy), this.catalogue,
				new McpEvents(List.of(this.events::add)), (refusal) -> true);
	}

	private RecoveringExecutor executor(FakeSession session) {
		return executor(session, RecoveryPolicy.ofDefaults());
	}

	private static McpRequest call(String tool) {
		return new McpRequest("tools/call", JsonNodeFactory.instance.objectNode().put("name", tool), tool,
				Duration.ofSeconds(5));
	}

	private static McpRequest list(String method) {
		return new McpRequest(method, null, null, Duration.ofSeconds(5));
	}

	private static SessionGoneException expiry() {
		return new SessionGoneException(UPSTREAM, "tools/call", 404,
				new McpHttpStatusException(UPSTREAM, "tools/call", 404, -32001, "Session not found"));
	}

	private static StreamLost lost() {
		return new StreamLost(UPSTREAM, "tools/call", "tools/call's response was lost",
				new StreamBrokenException("the event stream ended before the response", null, null), null, false);
	}

	private static StreamLost lostAt(String eventId, long retryMillis) {
		Resumption from = new Resumption(7, eventId, retryMillis);
		return new StreamLost(UPSTREAM, "tools/call", "tools/call's response was lost",
				new StreamBrokenException("the event stream ended before the response", null, from), from, false);
	}

	private void annotate(String tool, ToolAnnotations annotations) {
		this.catalogue.tools().remember(List.of(new Tool(tool, null, null, JsonNodeFactory.instance.objectNode(), null,
				annotations)));
	}

	private static ToolAnnotations idempotent() {
		return new ToolAnnotations(null, false, false, true, false);
	}

	private List<String> eventNames() {
		return this.events.stream().map((event) -> event.getClass().getSimpleName()).toList();
	}

	@Test
	void anExpiredSessionIsRenewedAndTheRequestSentOnceMoreInTheNewSession() {
		FakeSession session = new FakeSession().failing(expiry());
		assertThat(executor(session).execute(call("delete_item")).path("ok").asBoolean()).isTrue();
		assertThat(session.received).containsExactly("tools/call@1", "initialize", "tools/call@2");
		assertThat(eventNames()).containsExactly("McpSessionExpiredEvent", "McpSessionRecoveredEvent",
				"McpRequestReissuedEvent");
	}

	@Test
	void aSecondExpiryOnTheRetryIsTheAnswerWithTheFirstAsSuppressed() {
		FakeSession session = new FakeSession().failing(expiry(), expiry());
		assertThatThrownBy(() -> executor(session).execute(list("tools/list")))
			.isInstanceOfSatisfying(McpSessionExpiredException.class, (ex) -> {
				assertThat(ex.getMessage()).contains("expired again on its one retry");
				assertThat(ex.getCause()).isInstanceOf(McpHttpStatusException.class);
				assertThat(ex.getSuppressed()).hasSize(1);
			});
		assertThat(session.received).containsExactly("tools/list@1", "initialize", "tools/list@2");
	}

	@Test
	void aLostStreamOfAToolWithoutEvidenceIsRefusedWithTheGatesReason() {
		FakeSession session = new FakeSession().failing(lost());
		annotate("delete_item", ToolAnnotations.NONE);
		assertThatThrownBy(() -> executor(session).execute(call("delete_item")))
			.isInstanceOf(McpStreamLostException.class)
			.hasMessageContaining("may have executed; it was not re-issued: tool 'delete_item' is not annotated");
		assertThat(session.received).containsExactly("tools/call@1");
		assertThat(this.events).singleElement()
			.isInstanceOfSatisfying(McpReissueRefusedEvent.class,
					(refused) -> assertThat(refused.cause()).isEqualTo(ReplayCause.STREAM_LOST));
	}

	@Test
	void aReissueThatIsNotSentAfterALostStreamSaysTheRequestMayHaveRun() {
		FakeSession session = new FakeSession().failing(lost(), unreachable());
		annotate("set_value", idempotent());
		assertThatThrownBy(() -> executor(session).execute(call("set_value")))
			.isInstanceOfSatisfying(McpStreamLostException.class, (ex) -> {
				assertThat(ex.getMessage()).contains("tools/call 'set_value' lost its response and may have run");
				assertThat(ex.getCause()).isInstanceOf(McpTransportException.class);
				assertThat(ex.getSuppressed()).singleElement().isInstanceOf(McpStreamLostException.class);
			});
		assertThat(session.received).containsExactly("tools/call@1", "tools/call@1");
	}

	@Test
	void aResendThatIsNotSentAfterAnExpiryStaysNotSentSinceNothingRan() {
		FakeSession session = new FakeSession().failing(expiry(), unreachable());
		assertThatThrownBy(() -> executor(session).execute(call("delete_item")))
			.isInstanceOf(McpTransportException.class)
			.hasMessageContaining("was not sent");
		assertThat(session.received).containsExactly("tools/call@1", "initialize", "tools/call@2");
	}

	@Test
	void aReadShapedReissueThatIsNotSentStaysATransportFailure() {
		FakeSession session = new FakeSession().failing(lost(), unreachable());
		assertThatThrownBy(() -> executor(session).execute(list("tools/list")))
			.isInstanceOf(McpTransportException.class)
			.hasMessageContaining("was not sent");
		assertThat(session.received).containsExactly("tools/list@1", "tools/list@1");
	}

	private static McpTransportException unreachable() {
		return new McpTransportException(UPSTREAM, "could not reach 127.0.0.1:1 (connection refused); tools/call was "
				+ "not sent", new java.net.ConnectException("Connection refused"));
	}

	@Test
	void aLostStreamOfAnIdempotentToolIsReissuedOnce() {
		FakeSession session = new FakeSession().failing(lost(), lost());
		annotate("set_value", idempotent());
		assertThatThrownBy(() -> executor(session).execute(call("set_value")))
			.isInstanceOfSatisfying(McpStreamLostException.class,
					(ex) -> assertThat(ex.getSuppressed()).singleElement().isInstanceOf(McpStreamLostException.class));
		assertThat(session.received).containsExactly("tools/call@1", "tools/call@1");
		assertThat(eventNames()).containsExactly("McpRequestReissuedEvent");
	}

	@Test
	void theWorstSequenceExecutesTheRequestAtMostTwice() {
		// Lost (may have run), expired (proves the re-issue never ran), lost again (may have run).
		FakeSession session = new FakeSession().failing(lost(), expiry(), lost());
		annotate("set_value", idempotent());
		assertThatThrownBy(() -> executor(session).execute(call("set_value")))
			.isInstanceOfSatisfying(McpStreamLostException.class, (ex) -> assertThat(ex.getSuppressed())
				.hasExactlyElementsOfTypes(StreamLost.class, SessionGoneException.class));
		assertThat(session.received).containsExactly("tools/call@1", "tools/call@1", "initialize", "tools/call@2");
		long mayHaveRun = session.received.size() - 1 /* initialize */ - 1 /* the send answered 404 */;
		assertThat(mayHaveRun).isEqualTo(RecoveringExecutor.MAX_EXECUTIONS);
		assertThat(eventNames()).containsExactly("McpRequestReissuedEvent", "McpSessionExpiredEvent",
				"McpSessionRecoveredEvent", "McpRequestReissuedEvent");
		assertThat(this.events).filteredOn(McpRequestReissuedEvent.class::isInstance)
			.extracting((event) -> ((McpRequestReissuedEvent) event).cause())
			.containsExactly(ReplayCause.STREAM_LOST, ReplayCause.SESSION_EXPIRED);
	}

	@Test
	void anExpiryAfterAnExpiryRecoveryOfAnotherKindIsTheAnswer() {
		FakeSession session = new FakeSession().failing(expiry(), lost());
		annotate("set_value", idempotent());
		assertThatThrownBy(() -> executor(session).execute(call("set_value")))
			.isInstanceOf(McpStreamLostException.class);
		assertThat(session.received).containsExactly("tools/call@1", "initialize", "tools/call@2");
	}

	@Test
	void aBrokenStreamIsResumedAfterTheServersRetryWithoutSendingTheRequestAgain() {
		FakeSession session = new FakeSession().failing(lostAt("e-1", 50));
		assertThat(executor(session).execute(call("delete_item")).path("resumed").asBoolean()).isTrue();
		assertThat(session.received).containsExactly("tools/call@1", "GET e-1@1");
		assertThat(this.events).singleElement()
			.isInstanceOfSatisfying(McpStreamResumedEvent.class, (resumed) -> assertThat(resumed.attempts()).isEqualTo(1));
	}

	@Test
	void resumptionsAreBoundedThenTheLostStreamRuleDecides() {
		FakeSession session = new FakeSession().failing(lostAt("e-1", 0))
			.resumptionsFailing(lostAt("e-1", 0), lostAt("e-1", 0), lostAt("e-1", 0));
		annotate("delete_item", ToolAnnotations.NONE);
		RecoveryPolicy policy = RecoveryPolicy.custom().resumptionAttempts(3).build();
		assertThatThrownBy(() -> executor(session, policy).execute(call("delete_item")))
			.isInstanceOf(McpStreamLostException.class)
			.hasMessageContaining("was not re-issued");
		assertThat(session.received).containsExactly("tools/call@1", "GET e-1@1", "GET e-1@1", "GET e-1@1");
	}

	@Test
	void aLaterPageOfAListingIsNotReplayedAndSignalsARestart() {
		FakeSession session = new FakeSession().failing(expiry());
		McpRequest page = new McpRequest("tools/list", JsonNodeFactory.instance.objectNode().put("cursor", "c2"),
				null, Duration.ofSeconds(5));
		assertThatThrownBy(() -> executor(session).execute(page)).isInstanceOf(ListingRestart.class);
		assertThat(session.received).containsExactly("tools/list@1", "initialize");
		assertThat(this.events).filteredOn(McpReissueRefusedEvent.class::isInstance).hasSize(1);
	}

	@Test
	void refusedCredentialsAreRefreshedAndTheRequestSentOnceMore() {
		FakeSession session = new FakeSession()
			.failing(new McpAuthenticationException(UPSTREAM, "tools/call", 401, null));
		assertThat(executor(session).execute(call("delete_item")).path("ok").asBoolean()).isTrue();
		assertThat(session.received).containsExactly("tools/call@1", "tools/call@1");
		assertThat(this.events).singleElement()
			.isInstanceOfSatisfying(McpRequestReissuedEvent.class,
					(reissued) -> assertThat(reissued.cause()).isEqualTo(ReplayCause.CREDENTIALS_REFRESHED));
	}

	@Test
	void aReplayAfterRefreshedCredentialsThatLosesItsStreamGoesToTheReplayGate() {
		// The authorization flow took long enough for the server to close the idle connection.
		FakeSession session = new FakeSession()
			.failing(new McpAuthenticationException(UPSTREAM, "tools/call", 401, null), lost());
		annotate("set_value", idempotent());
		assertThat(executor(session).execute(call("set_value")).path("ok").asBoolean()).isTrue();
		assertThat(session.received).containsExactly("tools/call@1", "tools/call@1", "tools/call@1");
		assertThat(this.events).extracting((event) -> ((McpRequestReissuedEvent) event).cause())
			.containsExactly(ReplayCause.CREDENTIALS_REFRESHED, ReplayCause.STREAM_LOST);
	}

	@Test
	void aDestructiveReplayAfterRefreshedCredentialsThatLosesItsStreamIsNotSentAgain() {
		FakeSession session = new FakeSession()
			.failing(new McpAuthenticationException(UPSTREAM, "tools/call", 401, null), lost());
		annotate("delete_item", ToolAnnotations.NONE);
		assertThatThrownBy(() -> executor(session).execute(call("delete_item")))
			.isInstanceOfSatisfying(McpStreamLostException.class, (ex) -> {
				assertThat(ex.getMessage()).contains("was not re-issued");
				assertThat(ex.getSuppressed()).hasExactlyElementsOfTypes(McpAuthenticationException.class);
			});
		assertThat(session.received).containsExactly("tools/call@1", "tools/call@1");
		assertThat(eventNames()).containsExactly("McpRequestReissuedEvent", "McpReissueRefusedEvent");
	}

	@Test
	void theWorstSequenceAfterRefreshedCredentialsStillExecutesTheRequestAtMostTwice() {
		// Refused (never ran), lost (may have run), expired (never ran), lost again (may have run).
		FakeSession session = new FakeSession().failing(new McpAuthenticationException(UPSTREAM, "tools/call", 401,
				null), lost(), expiry(), lost());
		annotate("set_value", idempotent());
		assertThatThrownBy(() -> executor(session).execute(call("set_value")))
			.isInstanceOf(McpStreamLostException.class);
		assertThat(session.received).containsExactly("tools/call@1", "tools/call@1", "tools/call@1", "initialize",
				"tools/call@2");
		long mayHaveRun = session.received.size() - 1 /* initialize */ - 2 /* the sends answered 401 and 404 */;
		assertThat(mayHaveRun).isEqualTo(RecoveringExecutor.MAX_EXECUTIONS);
	}

	@Test
	void aFailureNoRuleKnowsIsTheAnswerAtOnce() {
		McpException other = new McpHttpStatusException(UPSTREAM, "tools/call", 500, null, null);
		FakeSession session = new FakeSession().failing(other);
		assertThatThrownBy(() -> executor(session).execute(call("x"))).isSameAs(other);
		assertThat(session.received).containsExactly("tools/call@1");
		assertThat(this.events).isEmpty();
	}

	@Test
	void noRuleReissuesASendOnceTwoMayHaveRun() {
		Attempt twice = new Attempt(call("set_value"), FakeSession.state(1), null, 3, 2, 1, 0, 0, java.util.Set.of());
		annotate("set_value", idempotent());
		Recovery recovery = new Recovery(UPSTREAM, new FakeSession(), RecoveryPolicy.ofDefaults(),
				new DefaultReplayGate(RecoveryPolicy.ofDefaults()), this.catalogue, new McpEvents(List.of()), null);
		FollowUp next = new FollowUps(recovery).next(twice, lost());
		assertThat(next).isInstanceOfSatisfying(FollowUp.GiveUp.class, (giveUp) -> assertThat(giveUp.failure())
			.hasMessageContaining("it may have run 2 times already"));
	}

	@Test
	void sessionRecoveryOffSurfacesTheExpiryWithoutARenewal() {
		FakeSession session = new FakeSession().failing(expiry());
		assertThatThrownBy(() -> executor(session, RecoveryPolicy.custom().sessionExpiry(false).build())
			.execute(list("ping"))).isInstanceOf(McpSessionExpiredException.class).hasMessageContaining("recovery is off");
		assertThat(session.renewals).isZero();
		assertThat(this.events).noneMatch((e) -> e instanceof McpSessionExpiredEvent || e instanceof McpSessionRecoveredEvent);
	}

}
