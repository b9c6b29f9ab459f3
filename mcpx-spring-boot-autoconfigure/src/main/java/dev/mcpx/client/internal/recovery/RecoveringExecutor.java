package dev.mcpx.client.internal.recovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.event.McpStreamResumedEvent;
import dev.mcpx.client.internal.catalogue.Catalogue;
import dev.mcpx.client.internal.events.McpEvents;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.ProtocolSession;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.transport.Resumption;
import dev.mcpx.client.recovery.RecoveryPolicy;
import dev.mcpx.client.recovery.ReplayGate;
import tools.jackson.databind.JsonNode;

/**
 * The one place that tries a request again, in one loop: make an attempt; when it fails,
 * ask the follow-up step for the next attempt; stop when there is none. The layers below
 * make exactly one attempt each. Each recovery is a named rule of this package (session
 * expiry, lost stream, legacy stream resumption, refused credentials, version
 * renegotiation, header correction, era change; the listing restart is
 * {@link Pagination}'s), consulting the one replay gate before anything is sent twice.
 * Failures that were recovered are kept and attached, as suppressed, to the failure the
 * caller finally gets.
 * <p>
 * The bound, enforced by the counters of {@link Attempt}:
 * <ul>
 * <li>a request is <em>executed</em> at most {@link #MAX_EXECUTIONS} (2) times: no send is
 * made once two sends may have run (a send may have run unless its failure proves
 * otherwise: an expired session, refused credentials, a refused version or headers);</li>
 * <li>it is <em>sent</em> at most three times: the first send, {@link #MAX_RECOVERIES} (1)
 * recovery, and, only when the re-issue of a lost stream meets an expired session, one more
 * send into the renewed session, since that refusal proves the re-issue never ran. Sends
 * refused for their credentials come on top (at most two: one refresh and one step-up), as
 * a refusal proves the send never ran and the replay it leads to keeps its own recovery;</li>
 * <li>a broken legacy stream is resumed at most {@code resumption-attempts} times per
 * send; resuming reads the same execution and is not a send.</li>
 * </ul>
 * A tool call that became a task (docs/architecture.md, "Tasks") keeps this bound for its
 * {@code tools/call} until the task id arrives, and is never sent again after: each poll
 * ({@code tasks/get}, {@code tasks/result}, {@code tasks/cancel}) is a request of its own,
 * read-shaped, under the same bound, and a poll that names a task of an expired session is
 * not replayed into the new one ({@code Recovery.sessionBoundState}). How many polls a task
 * costs is bounded by its caller's deadlines, not here.
 */
public final class RecoveringExecutor implements RequestExecutor {

	private static final Log logger = LogFactory.getLog(RecoveringExecutor.class);

	/** Executions of one request: the first, and one re-issue the gate allowed; never more. */
	public static final int MAX_EXECUTIONS = 2;

	/** Recoveries of one request: one more attempt, never a loop. */
	public static final int MAX_RECOVERIES = 1;

	/** What an attempt of {@link #connect()} yields once the session is open: the session. */
	private static final Pass<SessionState> OPENING = (attempt, on, startedNanos) -> on;

	private final ProtocolSession session;

	private final FollowUps followUps;

	private final McpEvents events;

	private final String upstream;

	/** What an attempt of {@link #execute} yields once the session is open: the result. */
	private final Pass<JsonNode> execution = this::sendOrResume;

	/**
	 * Creates the executor of one client.
	 * @param upstream the upstream name
	 * @param session the client's session
	 * @param policy the recovery policy
	 * @param gate the replay gate
	 * @param catalogue what the client knows of the upstream's tools, renewed with the session
	 * @param events where recovery events go
	 * @param credentials refreshes refused credentials, absent when there are none to refresh
	 */
	public RecoveringExecutor(String upstream, ProtocolSession session, RecoveryPolicy policy, ReplayGate gate,
			Catalogue catalogue, McpEvents events, @Nullable CredentialsRefresh credentials) {
		this.upstream = upstream;
		this.session = session;
		this.events = events;
		this.followUps = new FollowUps(new Recovery(upstream, session, policy, gate, catalogue, events, credentials));
	}

	@Override
	public SessionState connect() {
		return loop(Attempt.first(null), OPENING);
	}

	@Override
	public JsonNode execute(McpRequest request) {
		return loop(Attempt.first(request), this.execution);
	}

	@Override
	public JsonNode execute(McpRequest request, SessionState on) {
		return loop(Attempt.first(request).on(on), this.execution);
	}

	/**
	 * Whether a tool call would be sent again after its response was lost: broken-stream
	 * recovery is on and the replay gate allows it. Asked before the call, so that a call
	 * that would not be sent again can be made a task (docs/architecture.md, "Tasks"); no
	 * event is published, since nothing was refused yet.
	 * @param request the tool call
	 * @return {@code true} when a lost response would be answered by a second send
	 */
	public boolean resendsAfterLostResponse(McpRequest request) {
		return this.followUps.resendsAfterLostResponse(request);
	}

	/**
	 * The loop: each pass opens the session if the attempt has none, then makes the attempt;
	 * its value is the one result, or its failure goes to the follow-up step, which gives the
	 * next attempt or the failure to throw.
	 */
	private <T> T loop(Attempt first, Pass<T> pass) {
		List<McpException> recovered = null;
		Attempt attempt = first;
		while (true) {
			long started = System.nanoTime();
			SessionState on = attempt.on();
			try {
				if (on == null) {
					on = this.session.open();
				}
				return pass.make(attempt, on, started);
			}
			catch (McpException failure) {
				Attempt failed = (on != null && attempt.request() != null) ? attempt.madeOn(on, started) : attempt;
				FollowUp next = this.followUps.next(failed, failure);
				if (next instanceof FollowUp.GiveUp giveUp) {
					throw withStory(giveUp.failure(), recovered);
				}
				FollowUp.Retry retry = (FollowUp.Retry) next;
				if (retry.rule() == Rule.STREAM_RESUMPTION) {
					// The same execution read on: its breaks are not failures of the request.
					if (logger.isDebugEnabled()) {
						logger.debug("[" + this.upstream + "] " + retry.reason());
					}
				}
				else {
					if (recovered == null) {
						recovered = new ArrayList<>(2);
					}
					recovered.add(failure);
				}
				pause(retry.delayMillis());
				attempt = retry.next();
			}
		}
	}

	/**
	 * One send of the request, or the resumption of its broken stream, on the open session.
	 * A resumption reads on within what is left of the send's timeout.
	 */
	private JsonNode sendOrResume(Attempt attempt, SessionState on, long startedNanos) {
		McpRequest request = Objects.requireNonNull(attempt.request(), "the attempt of a request");
		Resumption from = attempt.resumeFrom();
		if (from == null) {
			return this.session.request(on, request);
		}
		JsonNode result = this.session.resume(on, request, from, attempt.remaining(startedNanos));
		this.events.publish(new McpStreamResumedEvent(this.upstream, request.method(), attempt.resumptions()));
		return result;
	}

	/** The failure the caller gets carries every failure recovered on the way. */
	private static McpException withStory(McpException failure, @Nullable List<McpException> recovered) {
		if (recovered == null) {
			return failure;
		}
		for (McpException earlier : recovered) {
			if (earlier != failure && !causes(failure, earlier)) {
				failure.addSuppressed(earlier);
			}
		}
		return failure;
	}

	private static boolean causes(Throwable failure, Throwable earlier) {
		for (Throwable t = failure.getCause(); t != null; t = t.getCause()) {
			if (t == earlier) {
				return true;
			}
		}
		return false;
	}

	private static void pause(long millis) {
		if (millis <= 0) {
			return;
		}
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * What one attempt makes of the open session: the loop's result, typed by what the caller
	 * asked for.
	 * @param <T> the result
	 */
	@FunctionalInterface
	private interface Pass<T> {

		/**
		 * Makes the attempt.
		 * @param attempt the attempt
		 * @param on the open session it is made on
		 * @param startedNanos when the attempt started
		 * @return the result
		 */
		T make(Attempt attempt, SessionState on, long startedNanos);

	}

}
