package dev.mcpx.client.internal.recovery;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpHeaderMismatchException;
import dev.mcpx.client.error.McpHttpStatusException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpSessionExpiredException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpUnsupportedVersionException;
import dev.mcpx.client.event.McpRecoveryFailedEvent;
import dev.mcpx.client.event.McpReissueRefusedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpSessionExpiredEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.internal.catalogue.ToolRegistry;
import dev.mcpx.client.internal.events.McpEvents;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.protocol.ToolHeaders;
import dev.mcpx.client.internal.session.EraEvidence;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.ProcessExitedException;
import dev.mcpx.client.internal.session.ProtocolSession;
import dev.mcpx.client.internal.session.RenewalListener;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.transport.stdio.ExitStatus;
import dev.mcpx.client.internal.transport.StreamBrokenException;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.model.ToolAnnotations;
import dev.mcpx.client.recovery.RecoveryPolicy;
import dev.mcpx.client.recovery.ReplayContext;
import dev.mcpx.client.recovery.ReplayDecision;
import dev.mcpx.client.recovery.ReplayGate;
import dev.mcpx.client.recovery.ToolReplay;
import tools.jackson.databind.JsonNode;

/**
 * The one place that decides to try a request again (DESIGN §2): after an expired legacy
 * session, a lost response stream, refused credentials, a refused protocol version, or an
 * upstream that changed era. The layers below make exactly
 * one attempt each; this class makes at most one more, and only after the replay gate
 * agrees. Every decision is a ladder of guards whose reason travels into the event and
 * the exception; a failure after a recovery attempt carries the earlier one as suppressed.
 */
public final class RecoveringExecutor implements RequestExecutor {

	private static final Log logger = LogFactory.getLog(RecoveringExecutor.class);

	/** One more attempt, never more: a second failure is the answer, never a loop. */
	static final int MAX_REPLAYS = 1;

	/**
	 * The wait before re-issuing a request whose connection died without a response: long
	 * enough for the HTTP client to drop the pooled connections a dead server closed,
	 * short beside any request timeout.
	 */
	static final Duration STALE_CONNECTION_PAUSE = Duration.ofMillis(100);

	private final String upstream;

	private final ProtocolSession session;

	private final RecoveryPolicy policy;

	private final ReplayGate gate;

	private final ToolRegistry tools;

	private final McpEvents events;

	private final CredentialsRefresh credentials;

	/**
	 * Creates the executor of one client.
	 * @param upstream the upstream name
	 * @param session the client's session
	 * @param policy the recovery policy
	 * @param gate the replay gate
	 * @param tools what the client learned of tools at list time
	 * @param events where recovery events go
	 * @param credentials refreshes refused credentials
	 */
	public RecoveringExecutor(String upstream, ProtocolSession session, RecoveryPolicy policy, ReplayGate gate,
			ToolRegistry tools, McpEvents events, @Nullable CredentialsRefresh credentials) {
		this.upstream = upstream;
		this.session = session;
		this.policy = policy;
		this.gate = gate;
		this.tools = tools;
		this.events = events;
		this.credentials = credentials;
	}

	@Override
	public SessionState connect() {
		return open();
	}

	@Override
	public JsonNode execute(McpRequest request) {
		SessionState state = open();
		try {
			return attempt(state, request);
		}
		catch (McpException failure) {
			return recover(state, request, failure);
		}
	}

	private JsonNode recover(SessionState state, McpRequest request, McpException failure) {
		if (failure instanceof ProcessExitedException exited) {
			return afterProcessExit(state, request, exited);
		}
		if (isCredentialsRefusal(failure)) {
			return afterRefusedCredentials(state, request, (McpHttpStatusException) failure);
		}
		if (isSessionExpiry(failure, state)) {
			return afterExpiry(state, request, (McpHttpStatusException) failure);
		}
		if (failure instanceof McpUnsupportedVersionException refused) {
			return afterRefusedVersion(state, request, refused);
		}
		if (failure instanceof McpHeaderMismatchException mismatch && request.toolName() != null) {
			return afterHeaderMismatch(state, request, mismatch);
		}
		if (isEraChange(failure, state)) {
			return afterEraChange(state, request, failure);
		}
		if (failure instanceof McpStreamLostException lost) {
			return afterLostStream(state, request, lost);
		}
		throw failure;
	}

	// --- refused protocol version: 2026-07-28 basic/versioning §Protocol Version Negotiation

	private JsonNode afterRefusedVersion(SessionState state, McpRequest request,
			McpUnsupportedVersionException refused) {
		// The client SHOULD select a mutually supported version and retry.
		SessionState next = this.session.negotiate(state, refused.supported());
		if (next == null) {
			throw refused;
		}
		return retryRejected(next, request, ReplayCause.VERSION_RENEGOTIATED,
				"the server supports " + next.protocolVersion(), refused);
	}

	// --- rejected tool headers: 2026-07-28 transports/streamable-http §Client Behavior --

	/**
	 * The client SHOULD list tools to check for changes to the tool's input schema, then
	 * retry with the headers it now declares; when they are the same, the mismatch stands.
	 */
	private JsonNode afterHeaderMismatch(SessionState state, McpRequest request, McpHeaderMismatchException mismatch) {
		ToolHeaders declared;
		try {
			declared = this.tools.relearn(request.toolName());
		}
		catch (McpException ex) {
			mismatch.addSuppressed(ex);
			throw mismatch;
		}
		if (!declared.isValid()) {
			throw mismatch;
		}
		Map<String, String> headers = declared.headersFor(request.params().path("arguments"));
		if (headers.equals(request.headers())) {
			throw mismatch;
		}
		McpRequest corrected = new McpRequest(request.method(), request.params(), request.toolName(),
				request.timeout(), headers);
		return retryRejected(state, corrected, ReplayCause.HEADERS_CORRECTED,
				"tool '" + request.toolName() + "' declares other header parameters now", mismatch);
	}

	// --- an upstream that changed era: 2026-07-28 basic/versioning §Backward Compatibility

	/**
	 * A legacy request answered with a modern error, or a modern request rejected the way
	 * a legacy server does: the upstream was upgraded or downgraded in place.
	 */
	private static boolean isEraChange(McpException failure, SessionState state) {
		return (state.era() == ProtocolEra.LEGACY) ? EraEvidence.showsModernServer(failure)
				: EraEvidence.showsLegacyServer(failure);
	}

	private JsonNode afterEraChange(SessionState state, McpRequest request, McpException failure) {
		SessionState next;
		try {
			next = this.session.redetect(state);
		}
		catch (McpException ex) {
			ex.addSuppressed(failure);
			throw ex;
		}
		if (next == null) {
			throw failure;
		}
		return retryRejected(next, request, ReplayCause.ERA_CHANGED, "the upstream now speaks the " + next.era()
				+ " era", failure);
	}

	/** One more attempt of a request the server rejected before running it. */
	private JsonNode retryRejected(SessionState next, McpRequest request, ReplayCause cause, String reason,
			McpException failure) {
		reissued(request, cause, reason);
		try {
			return attempt(next, request);
		}
		catch (McpException again) {
			again.addSuppressed(failure);
			throw again;
		}
	}

	// --- session expiry: 2025-11-25 transports §Session Management, rules 3-4 -----

	/**
	 * A 404 answering a request that carried a session id means the session is gone
	 * (rule 3); widely deployed servers answer a 400 naming the session instead.
	 */
	boolean isSessionExpiry(McpException failure, SessionState state) {
		if (!(failure instanceof McpHttpStatusException status) || !state.hasSessionId()) {
			return false;
		}
		if (status.status() == 404) {
			return true;
		}
		return status.status() == 400 && this.policy.expiryOnBadRequest() && namesSession(status.jsonRpcMessage());
	}

	private JsonNode afterExpiry(SessionState dead, McpRequest request, McpHttpStatusException failure) {
		if (!this.policy.sessionExpiry()) {
			this.session.invalidate(dead);
			throw expired(request, dead, "the session expired and session recovery is off; the next call opens a "
					+ "new session", failure);
		}
		// Rule 4: start a new session, once for every caller that saw this generation die.
		SessionState next = renew(dead, request, failure);
		String bound = sessionBoundState(request);
		if (bound != null) {
			refused(request, ReplayCause.SESSION_EXPIRED, bound);
			throw expired(request, dead, request.method() + " was not replayed: " + bound, failure);
		}
		ReplayDecision decision = this.gate.decide(context(request, ReplayCause.SESSION_EXPIRED,
				annotationsIfToolCall(request, false)));
		if (!decision.allowed()) {
			refused(request, ReplayCause.SESSION_EXPIRED, decision.reason());
			throw expired(request, dead, request.method() + " was not replayed: " + decision.reason(), failure);
		}
		reissued(request, ReplayCause.SESSION_EXPIRED, decision.reason());
		try {
			return attempt(next, request);
		}
		catch (McpException again) {
			if (isSessionExpiry(again, next)) {
				McpSessionExpiredException twice = expired(request, next, request.method()
						+ " found its session expired again on its one retry (at most " + MAX_REPLAYS + ")", again);
				twice.addSuppressed(failure);
				throw twice;
			}
			again.addSuppressed(failure);
			throw again;
		}
	}

	private SessionState renew(SessionState dead, McpRequest request, McpException failure) {
		int status = (failure instanceof McpHttpStatusException http) ? http.status() : 404;
		try {
			return this.session.renew(dead, new RenewalEvents(request.method(), status));
		}
		catch (McpException ex) {
			McpRecoveryFailedException recoveryFailed = new McpRecoveryFailedException(this.upstream,
					request.method() + " found session generation " + dead.generation()
							+ " expired and re-initializing failed; the next call tries again",
					ex);
			recoveryFailed.addSuppressed(failure);
			throw recoveryFailed;
		}
	}

	/**
	 * What a request names of its session's state, which a new session would not know
	 * (DESIGN §2.1): such a request is never replayed into a new session.
	 */
	private static String sessionBoundState(McpRequest request) {
		if (request.params() != null && request.params().has("cursor")) {
			return "its cursor belongs to the expired session";
		}
		if (request.method().startsWith("tasks/")) {
			return "it names a task of the expired session";
		}
		if (request.method().equals(McpMethods.RESOURCES_SUBSCRIBE) || request.method().equals("resources/unsubscribe")) {
			return "subscriptions belong to the expired session";
		}
		return null;
	}

	private static boolean namesSession(String message) {
		return message != null && message.toLowerCase(Locale.ROOT).contains("session");
	}

	// --- a stdio server process that ended: 2026-07-28 basic/transports/stdio §Unexpected Termination

	/**
	 * The client SHOULD restart a server process that exits unexpectedly; in-flight requests
	 * are lost and may be retried against the fresh process. The restart is a renewal like a
	 * session's (one for every caller that saw the process end); what is sent again is the
	 * gate's decision, since the server may have run what it had read. A request the process
	 * never read is sent again without asking: it has not run.
	 */
	private JsonNode afterProcessExit(SessionState dead, McpRequest request, ProcessExitedException exited) {
		SessionState next;
		try {
			next = this.session.renew(dead, new RenewalEvents(request.method(), exited.exit()));
		}
		catch (McpException ex) {
			McpRecoveryFailedException recoveryFailed = (ex instanceof McpRecoveryFailedException failed) ? failed
					: new McpRecoveryFailedException(this.upstream, request.method() + " found the server "
							+ exited.exit().describe() + " and restarting it failed; the next call tries again", ex);
			recoveryFailed.addSuppressed(exited);
			throw recoveryFailed;
		}
		String reason;
		if (!exited.delivered()) {
			reason = "the exited server process never read it";
		}
		else {
			String bound = sessionBoundState(request);
			if (bound != null) {
				refused(request, ReplayCause.PROCESS_EXITED, bound);
				throw processExited(request, exited, bound);
			}
			if (!this.policy.brokenStream()) {
				refused(request, ReplayCause.PROCESS_EXITED, "recovery of broken streams is off");
				throw processExited(request, exited, "recovery of broken streams is off");
			}
			ReplayDecision decision = this.gate.decide(context(request, ReplayCause.PROCESS_EXITED,
					annotationsIfToolCall(request, true)));
			if (!decision.allowed()) {
				refused(request, ReplayCause.PROCESS_EXITED, decision.reason());
				throw processExited(request, exited, decision.reason());
			}
			reason = decision.reason();
		}
		reissued(request, ReplayCause.PROCESS_EXITED, reason);
		try {
			return attempt(next, request);
		}
		catch (McpException again) {
			again.addSuppressed(exited);
			throw again;
		}
	}

	private McpStreamLostException processExited(McpRequest request, ProcessExitedException exited, String reason) {
		String what = (request.toolName() != null) ? "tool '" + request.toolName() + "'" : request.method();
		return new McpStreamLostException(this.upstream, request.method(), "the server "
				+ exited.exit().describe() + " while " + what + " was in flight; the call may have run and was not "
				+ "re-issued: " + reason, exited);
	}

	// --- lost response stream: DESIGN §2.2, legacy resumption failed ---------------

	private JsonNode afterLostStream(SessionState state, McpRequest request, McpStreamLostException lost) {
		if (!this.policy.brokenStream()) {
			refused(request, ReplayCause.STREAM_LOST, "recovery of broken streams is off");
			throw notReissued(request, lost, "recovery of broken streams is off");
		}
		SessionState on = state;
		if (lost.sessionGone()) {
			on = renew(state, request, lost);
			String bound = sessionBoundState(request);
			if (bound != null) {
				refused(request, ReplayCause.STREAM_LOST, bound);
				throw notReissued(request, lost, bound);
			}
		}
		ReplayDecision decision = this.gate.decide(context(request, ReplayCause.STREAM_LOST,
				annotationsIfToolCall(request, true)));
		if (!decision.allowed()) {
			refused(request, ReplayCause.STREAM_LOST, decision.reason());
			throw notReissued(request, lost, decision.reason());
		}
		reissued(request, ReplayCause.STREAM_LOST, decision.reason());
		if (!(lost.getCause() instanceof StreamBrokenException)) {
			// The connection died before any response: let the HTTP client's pool notice the
			// other connections a dead server closed, or the re-issue takes one of them.
			pause(STALE_CONNECTION_PAUSE);
		}
		try {
			return attempt(on, request);
		}
		catch (McpException again) {
			again.addSuppressed(lost);
			if (isSessionExpiry(again, on)) {
				// The session died with the connection; the 404 proves the re-issue never ran.
				return afterExpiry(on, request, (McpHttpStatusException) again);
			}
			throw again;
		}
	}

	private static void pause(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private McpStreamLostException notReissued(McpRequest request, McpStreamLostException lost, String reason) {
		String what = (request.toolName() != null) ? "tool '" + request.toolName() + "'" : request.method();
		return new McpStreamLostException(this.upstream, request.method(),
				what + " lost its response and may have executed; it was not re-issued: " + reason, lost,
				lost.lastEventId(), lost.retryMillis(), lost.sessionGone());
	}

	// --- refused credentials: DESIGN §2.4 ------------------------------------------

	private static boolean isCredentialsRefusal(McpException failure) {
		return failure instanceof McpHttpStatusException status && (status.status() == 401 || status.status() == 403);
	}

	private SessionState open() {
		try {
			return this.session.open();
		}
		catch (McpException failure) {
			if (!isCredentialsRefusal(failure)) {
				throw failure;
			}
			McpHttpStatusException refusal = (McpHttpStatusException) failure;
			if (!refreshCredentials(refusal)) {
				throw authenticationFailure(McpMethods.INITIALIZE, refusal);
			}
			try {
				return this.session.open();
			}
			catch (McpException again) {
				throw isCredentialsRefusal(again)
						? authenticationFailure(McpMethods.INITIALIZE, (McpHttpStatusException) again) : again;
			}
		}
	}

	private JsonNode afterRefusedCredentials(SessionState state, McpRequest request, McpHttpStatusException refusal) {
		if (!refreshCredentials(refusal)) {
			throw authenticationFailure(request.method(), refusal);
		}
		ReplayDecision decision = this.gate.decide(context(request, ReplayCause.CREDENTIALS_REFRESHED,
				annotationsIfToolCall(request, false)));
		if (!decision.allowed()) {
			refused(request, ReplayCause.CREDENTIALS_REFRESHED, decision.reason());
			throw authenticationFailure(request.method(), refusal);
		}
		reissued(request, ReplayCause.CREDENTIALS_REFRESHED, decision.reason());
		try {
			return attempt(state, request);
		}
		catch (McpException again) {
			McpException result = isCredentialsRefusal(again)
					? authenticationFailure(request.method(), (McpHttpStatusException) again) : again;
			result.addSuppressed(refusal);
			throw result;
		}
	}

	private boolean refreshCredentials(McpHttpStatusException refusal) {
		if (refusal.status() != 401 || this.credentials == null) {
			return false;
		}
		try {
			return this.credentials.refresh(refusal);
		}
		catch (RuntimeException ex) {
			logger.warn("[" + this.upstream + "] refreshing credentials failed", ex);
			return false;
		}
	}

	private McpAuthenticationException authenticationFailure(String method, McpHttpStatusException refusal) {
		return new McpAuthenticationException(this.upstream, method, refusal.status(), refusal);
	}

	// --- shared -------------------------------------------------------------------

	private JsonNode attempt(SessionState on, McpRequest request) {
		return this.session.request(on, request);
	}

	private Optional<ToolAnnotations> annotationsIfToolCall(McpRequest request, boolean learnIfUnknown) {
		String tool = request.toolName();
		if (tool == null) {
			return Optional.empty();
		}
		boolean wouldConsult = this.policy.trustAnnotations()
				&& this.policy.toolReplay(tool) == ToolReplay.ANNOTATIONS;
		if (!learnIfUnknown || !wouldConsult) {
			return this.tools.find(tool);
		}
		try {
			return this.tools.learn(tool);
		}
		catch (McpException ex) {
			logger.debug("[" + this.upstream + "] could not list tools to learn the annotations of " + tool + ": "
					+ ex.getMessage());
			return Optional.empty();
		}
	}

	private ReplayContext context(McpRequest request, ReplayCause cause, Optional<ToolAnnotations> toolAnnotations) {
		return new ReplayContext(this.upstream, request.method(), request.toolName(), cause, toolAnnotations);
	}

	private McpSessionExpiredException expired(McpRequest request, SessionState on, String message,
			McpException cause) {
		return new McpSessionExpiredException(this.upstream, request.method(), on.generation(), message, cause);
	}

	private void reissued(McpRequest request, ReplayCause cause, String reason) {
		// Once per caller: with many callers, the expiry and recovery lines say it once.
		if (logger.isDebugEnabled()) {
			logger.debug("[" + this.upstream + "] re-sending " + describe(request) + " after " + describe(cause) + ": "
					+ reason);
		}
		this.events.publish(new McpRequestReissuedEvent(this.upstream, request.method(), request.toolName(), cause,
				reason));
	}

	private void refused(McpRequest request, ReplayCause cause, String reason) {
		logger.warn("[" + this.upstream + "] not re-sending " + describe(request) + " after " + describe(cause) + ": "
				+ reason);
		this.events.publish(new McpReissueRefusedEvent(this.upstream, request.method(), request.toolName(), cause,
				reason));
	}

	private static String describe(McpRequest request) {
		return (request.toolName() != null) ? "tools/call '" + request.toolName() + "'" : request.method();
	}

	private static String describe(ReplayCause cause) {
		return switch (cause) {
			case SESSION_EXPIRED -> "an expired session";
			case STREAM_LOST -> "a lost response stream";
			case CREDENTIALS_REFRESHED -> "refreshed credentials";
			case VERSION_RENEGOTIATED -> "a refused protocol version";
			case ERA_CHANGED -> "a change of protocol era";
			case HEADERS_CORRECTED -> "rejected tool headers";
			case PROCESS_EXITED -> "the exit of the server process";
		};
	}

	/** Reports the renewal of one generation, heard only by the caller that performs it. */
	private final class RenewalEvents implements RenewalListener {

		private final String method;

		private final ReplayCause trigger;

		private final int status;

		private final String cause;

		/** An expired session: a request was answered with this HTTP status. */
		RenewalEvents(String method, int status) {
			this(method, ReplayCause.SESSION_EXPIRED, status, method + " was answered HTTP " + status);
		}

		/** A server process that ended, as its exit describes it. */
		RenewalEvents(String method, ExitStatus exit) {
			this(method, ReplayCause.PROCESS_EXITED, 0, "the server " + exit.describe());
		}

		private RenewalEvents(String method, ReplayCause trigger, int status, String cause) {
			this.method = method;
			this.trigger = trigger;
			this.status = status;
			this.cause = cause;
		}

		private String expiry(SessionState dead) {
			if (this.trigger == ReplayCause.PROCESS_EXITED) {
				return this.cause + " (generation " + dead.generation() + ")";
			}
			return "session " + dead.redactedSessionId() + " (generation " + dead.generation() + ") expired: "
					+ this.cause;
		}

		// One line per recovery, written when its outcome is known: a log line is a write
		// on the recovering caller's path, and one line tells the whole story.

		@Override
		public void expired(SessionState dead) {
			if (logger.isDebugEnabled()) {
				logger.debug("[" + RecoveringExecutor.this.upstream + "] " + expiry(dead) + "; re-initializing");
			}
			RecoveringExecutor.this.events.publish(new McpSessionExpiredEvent(RecoveringExecutor.this.upstream,
					this.method, dead.generation(), dead.redactedSessionId(), this.status, this.trigger, this.cause));
		}

		@Override
		public void renewed(SessionState dead, SessionState next, Duration took) {
			logger.info("[" + RecoveringExecutor.this.upstream + "] " + expiry(dead) + "; recovered: generation "
					+ next.generation() + " replaces it (handshake took " + took.toMillis() + " ms)");
			RecoveringExecutor.this.events.publish(new McpSessionRecoveredEvent(RecoveringExecutor.this.upstream,
					dead.generation(), next.generation(), took, this.trigger, this.cause));
		}

		@Override
		public void failed(SessionState dead, McpException failure) {
			logger.warn("[" + RecoveringExecutor.this.upstream + "] " + expiry(dead) + "; "
					+ ((this.trigger == ReplayCause.PROCESS_EXITED) ? "restarting it" : "re-initializing") + " failed: "
					+ failure.getMessage());
			RecoveringExecutor.this.events.publish(new McpRecoveryFailedEvent(RecoveringExecutor.this.upstream,
					this.method, dead.generation(), failure.getMessage(), this.trigger));
		}

	}

}
