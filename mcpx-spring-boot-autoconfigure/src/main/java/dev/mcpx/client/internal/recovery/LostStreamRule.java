package dev.mcpx.client.internal.recovery;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.internal.session.EraEvidence;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.session.StreamLost;
import dev.mcpx.client.internal.transport.stdio.ExitStatus;
import dev.mcpx.client.recovery.ReplayDecision;

/**
 * A request's response stream ended before its response and could not be resumed
 * (2026-07-28 changelog: a broken stream is a lost response; 2025-11-25 basic/transports
 * §Resumability when resumption failed; a stdio process that exited after the request was
 * written): the request may have run, so it is sent again, as a new request, only when the
 * replay gate finds a second run harmless. When the stream's session is gone too, the
 * session is renewed first.
 */
final class LostStreamRule implements RecoveryRule {

	/**
	 * The wait before re-issuing a request whose connection died without a response: long
	 * enough for the HTTP client to drop the pooled connections a dead server closed,
	 * short beside any request timeout.
	 */
	static final Duration STALE_CONNECTION_PAUSE = Duration.ofMillis(100);

	@Override
	public @Nullable FollowUp decide(Attempt failed, McpException failure, Recovery recovery) {
		if (failed.on() == null) {
			McpStreamLostException handshakeLost = lostHandshake(failure);
			return (handshakeLost != null) ? afterRefreshedCredentials(failed, handshakeLost) : null;
		}
		if (!(failure instanceof McpStreamLostException lost)) {
			return null;
		}
		if (failed.request() == null) {
			return null;
		}
		McpRequest request = failed.request();
		if (!recovery.policy.brokenStream()) {
			recovery.refused(request, ReplayCause.STREAM_LOST, "recovery of broken streams is off");
			return FollowUp.giveUp(notReissued(request, lost, "recovery of broken streams is off"));
		}
		if (failed.recoveredBesidesCredentials()) {
			return FollowUp.giveUp(lost);
		}
		if (failed.executedSoFar(true) >= RecoveringExecutor.MAX_EXECUTIONS) {
			return FollowUp.giveUp(notReissued(request, lost,
					"it may have run " + RecoveringExecutor.MAX_EXECUTIONS + " times already"));
		}
		SessionState on = failed.on();
		boolean sessionGone = lost instanceof StreamLost plumbing && plumbing.sessionGone();
		if (sessionGone) {
			// A stdio process that exited is a session gone with no HTTP status.
			on = recovery.renew(on, request, lost, (Recovery.exitOf(lost) != null) ? 0 : 404);
			String bound = Recovery.sessionBoundState(request);
			if (bound != null) {
				recovery.refused(request, ReplayCause.STREAM_LOST, bound);
				return FollowUp.giveUp(notReissued(request, lost, bound));
			}
		}
		ReplayDecision decision = recovery.askGate(request, ReplayCause.STREAM_LOST, true);
		if (!decision.allowed()) {
			recovery.refused(request, ReplayCause.STREAM_LOST, decision.reason());
			return FollowUp.giveUp(notReissued(request, lost, decision.reason()));
		}
		recovery.reissued(request, ReplayCause.STREAM_LOST, decision.reason());
		boolean responseStarted = lost instanceof StreamLost plumbing && plumbing.responseStarted();
		// The connection died before any response: let the HTTP client's pool notice the
		// other connections a dead server closed, or the re-issue takes one of them.
		long delay = responseStarted ? 0 : STALE_CONNECTION_PAUSE.toMillis();
		return FollowUp.retry(failed.resend(on, request, true, Rule.LOST_STREAM), Rule.LOST_STREAM,
				decision.reason(), delay);
	}

	/**
	 * The handshake after new credentials lost its connection before any response: the
	 * authorization flow can outlast the server's idle timeout of the pooled connection.
	 * Opening is safe to repeat (a new session nobody uses yet, or {@code server/discover}),
	 * once, after the pause that lets the pool drop the closed connections.
	 */
	private static @Nullable FollowUp afterRefreshedCredentials(Attempt failed, McpStreamLostException lost) {
		boolean responseStarted = lost instanceof StreamLost plumbing && plumbing.responseStarted();
		if (!failed.hasFired(Rule.REFUSED_CREDENTIALS) || failed.hasFired(Rule.LOST_STREAM) || responseStarted) {
			return null;
		}
		return FollowUp.retry(failed.reopen(Rule.LOST_STREAM), Rule.LOST_STREAM,
				"the handshake after new credentials lost its connection before any response",
				STALE_CONNECTION_PAUSE.toMillis());
	}

	/**
	 * The lost stream of an opening: the handshake's own, or that of an era probe which, for
	 * want of an answer, failed as a recovery failure (see {@code EraDetectingSession}).
	 */
	private static @Nullable McpStreamLostException lostHandshake(McpException failure) {
		if (failure instanceof McpStreamLostException lost) {
			return lost;
		}
		return (failure instanceof McpRecoveryFailedException && failure.getCause() instanceof McpStreamLostException lost)
				? lost : null;
	}

	/**
	 * A tool call that never left, an earlier send of which may have run (its response was
	 * lost and it was sent again, say to an upstream that went down meanwhile): the caller must
	 * not read "was not sent". It gets the lost response's type, saying the call may have run;
	 * the failure of the send is the cause. Read-shaped requests keep their failure: running
	 * them twice changes nothing, and an upstream that cannot be reached stays a transport
	 * failure (health reads it as such).
	 * @param failed the attempt whose send did not leave
	 * @param failure how it failed
	 * @return the failure for the caller
	 */
	static McpException notSentAfterAPossibleRun(Attempt failed, McpException failure) {
		McpRequest request = failed.request();
		if (!(failure instanceof McpTransportException) || request == null || request.toolName() == null
				|| failed.mayHaveExecuted() == 0) {
			return failure;
		}
		return new McpStreamLostException(failure.upstream(), request.method(), Recovery.describe(request)
				+ " lost its response and may have run; sending it again failed before it reached the server ("
				+ EraEvidence.quoted(failure) + ")", failure);
	}

	private static McpStreamLostException notReissued(McpRequest request, McpStreamLostException lost,
			String reason) {
		String what = (request.toolName() != null) ? "tool '" + request.toolName() + "'" : request.method();
		ExitStatus exit = Recovery.exitOf(lost);
		String message = (exit != null)
				? "the server " + exit.describe() + " while " + what + " was in flight; the call may have run and "
						+ "was not re-issued: " + reason
				: what + " lost its response and may have executed; it was not re-issued: " + reason;
		return (lost instanceof StreamLost plumbing) ? plumbing.withMessage(message)
				: new McpStreamLostException(lost.upstream(), request.method(), message, lost);
	}

}
