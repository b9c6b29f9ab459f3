package dev.mcpx.client.internal.recovery;

import java.time.Duration;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpSessionExpiredException;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpRecoveryFailedEvent;
import dev.mcpx.client.event.McpReissueRefusedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpSessionExpiredEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.internal.catalogue.Catalogue;
import dev.mcpx.client.internal.catalogue.ToolRegistry;
import dev.mcpx.client.internal.events.McpEvents;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.ProtocolSession;
import dev.mcpx.client.internal.session.RenewalListener;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.transport.stdio.ChannelClosedException;
import dev.mcpx.client.internal.transport.stdio.ExitStatus;
import dev.mcpx.client.model.ToolAnnotations;
import dev.mcpx.client.recovery.RecoveryPolicy;
import dev.mcpx.client.recovery.ReplayContext;
import dev.mcpx.client.recovery.ReplayDecision;
import dev.mcpx.client.recovery.ReplayGate;
import dev.mcpx.client.recovery.ToolReplay;

/**
 * What the recovery rules of one client may do and consult: the session to renew, the
 * policy and the replay gate, what is known of tools, the credentials, and where events
 * go. Shared by every rule, so that each rule reads as its decision alone.
 */
final class Recovery {

	private static final Log logger = LogFactory.getLog(Recovery.class);

	final String upstream;

	final ProtocolSession session;

	final RecoveryPolicy policy;

	private final ReplayGate gate;

	private final Catalogue catalogue;

	private final McpEvents events;

	private final @Nullable CredentialsRefresh credentials;

	Recovery(String upstream, ProtocolSession session, RecoveryPolicy policy, ReplayGate gate, Catalogue catalogue,
			McpEvents events, @Nullable CredentialsRefresh credentials) {
		this.upstream = upstream;
		this.session = session;
		this.policy = policy;
		this.gate = gate;
		this.catalogue = catalogue;
		this.events = events;
		this.credentials = credentials;
	}

	ToolRegistry tools() {
		return this.catalogue.tools();
	}

	/**
	 * Replaces a dead session, once for every caller that saw its generation die
	 * (2025-11-25 basic/transports §Session Management, rule 4).
	 * @throws McpRecoveryFailedException if the handshake fails; the next call tries again
	 */
	SessionState renew(SessionState dead, McpRequest request, McpException failure, int status) {
		ExitStatus exit = exitOf(failure);
		try {
			return this.session.renew(dead, new RenewalEvents(request.method(), status, exit));
		}
		catch (McpRecoveryFailedException ex) {
			// Already says what failed (a stdio server that cannot start, a spent restart budget).
			ex.addSuppressed(failure);
			throw ex;
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
	 * How the server process of a stdio upstream ended, when that is what failed.
	 * @param failure the failure
	 * @return the exit, absent for any other failure
	 */
	static @Nullable ExitStatus exitOf(Throwable failure) {
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t instanceof ChannelClosedException closed) {
				return closed.exit();
			}
		}
		return null;
	}

	/**
	 * What a request names of its session's state, which a new session would not know:
	 * such a request is never replayed into a new session (2025-11-25
	 * basic/utilities/pagination: a cursor is opaque and session-bound; server/resources
	 * §Subscriptions; basic/utilities/tasks).
	 */
	static @Nullable String sessionBoundState(McpRequest request) {
		if (isLaterPage(request)) {
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

	static boolean isLaterPage(McpRequest request) {
		return request.params() != null && request.params().has("cursor");
	}

	/** Asks the replay gate, with the tool's annotations, listing tools to learn them if told to. */
	ReplayDecision askGate(McpRequest request, ReplayCause cause, boolean learnIfUnknown) {
		return this.gate.decide(new ReplayContext(this.upstream, request.method(), request.toolName(), cause,
				annotationsIfToolCall(request, learnIfUnknown)));
	}

	private Optional<ToolAnnotations> annotationsIfToolCall(McpRequest request, boolean learnIfUnknown) {
		String tool = request.toolName();
		if (tool == null) {
			return Optional.empty();
		}
		boolean wouldConsult = this.policy.trustAnnotations()
				&& this.policy.toolReplay(tool) == ToolReplay.ANNOTATIONS;
		if (!learnIfUnknown || !wouldConsult) {
			return tools().find(tool);
		}
		try {
			return tools().learn(tool);
		}
		catch (McpException ex) {
			logger.debug("[" + this.upstream + "] could not list tools to learn the annotations of " + tool + ": "
					+ ex.getMessage());
			return Optional.empty();
		}
	}

	/** Refreshes refused credentials; a failed refresh is a refusal, logged. */
	/**
	 * Asks the credentials for new ones. A 403 is passed on too: credentials that know
	 * scopes step up on {@code insufficient_scope}, others decline. A refresh that throws (an
	 * authorization flow that failed) becomes the cause of the
	 * {@link McpAuthenticationException}, so the caller learns why; the next call asks again.
	 */
	boolean refreshCredentials(String method, McpAuthenticationException refusal) {
		if (this.credentials == null) {
			return false;
		}
		try {
			return this.credentials.refresh(refusal);
		}
		catch (RuntimeException ex) {
			// the message of a failed flow names the step, never a token or secret
			logger.warn("[" + this.upstream + "] refreshing credentials after HTTP " + refusal.status() + " failed: "
					+ ex.getMessage());
			McpAuthenticationException failure = new McpAuthenticationException(this.upstream, method,
					refusal.status(), refusal.challenge(), ex);
			failure.addSuppressed(refusal);
			throw failure;
		}
	}

	McpSessionExpiredException expired(McpRequest request, SessionState on, String message, McpException cause) {
		return new McpSessionExpiredException(this.upstream, request.method(), on.generation(), message, cause);
	}

	void reissued(McpRequest request, ReplayCause cause, String reason) {
		// Once per caller: with many callers, the expiry and recovery lines say it once.
		if (logger.isDebugEnabled()) {
			logger.debug("[" + this.upstream + "] re-sending " + describe(request) + " after " + describe(cause) + ": "
					+ reason);
		}
		this.events.publish(new McpRequestReissuedEvent(this.upstream, request.method(), request.toolName(), cause,
				reason));
	}

	void refused(McpRequest request, ReplayCause cause, String reason) {
		logger.warn("[" + this.upstream + "] not re-sending " + describe(request) + " after " + describe(cause) + ": "
				+ reason);
		this.events.publish(new McpReissueRefusedEvent(this.upstream, request.method(), request.toolName(), cause,
				reason));
	}

	void publish(McpEvent event) {
		this.events.publish(event);
	}

	static String describe(McpRequest request) {
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

		private final int status;

		private final @Nullable ExitStatus exit;

		RenewalEvents(String method, int status, @Nullable ExitStatus exit) {
			this.method = method;
			this.status = status;
			this.exit = exit;
		}

		/** 2026-07-28 basic/transports/stdio §Unexpected Termination: a process exit is a dead session. */
		private ReplayCause trigger() {
			return (this.exit != null) ? ReplayCause.PROCESS_EXITED : ReplayCause.SESSION_EXPIRED;
		}

		private String cause() {
			if (this.exit != null) {
				return "the server " + this.exit.describe();
			}
			return this.method + " " + ((this.status > 0) ? "was answered HTTP " + this.status : "found its channel closed");
		}

		private String expiry(SessionState dead) {
			if (this.exit != null) {
				return cause() + " (generation " + dead.generation() + ")";
			}
			return "session " + dead.redactedSessionId() + " (generation " + dead.generation() + ") expired: " + cause();
		}

		// One line per recovery, written when its outcome is known: a log line is a write
		// on the recovering caller's path, and one line tells the whole story.

		@Override
		public void expired(SessionState dead) {
			if (logger.isDebugEnabled()) {
				logger.debug("[" + Recovery.this.upstream + "] " + expiry(dead) + "; re-initializing");
			}
			Recovery.this.events.publish(new McpSessionExpiredEvent(Recovery.this.upstream, this.method,
					dead.generation(), dead.redactedSessionId(), this.status, trigger(), cause()));
		}

		@Override
		public void renewed(SessionState dead, SessionState next, Duration took) {
			logger.info("[" + Recovery.this.upstream + "] " + expiry(dead) + "; recovered: generation "
					+ next.generation() + " replaces it (handshake took " + took.toMillis() + " ms)");
			Recovery.this.events.publish(new McpSessionRecoveredEvent(Recovery.this.upstream, dead.generation(),
					next.generation(), took, trigger(), cause()));
			Recovery.this.catalogue.sessionRenewed(next.generation());
		}

		@Override
		public void failed(SessionState dead, McpException failure) {
			logger.warn("[" + Recovery.this.upstream + "] " + expiry(dead) + "; "
					+ ((this.exit != null) ? "restarting it" : "re-initializing") + " failed: " + failure.getMessage());
			Recovery.this.events.publish(new McpRecoveryFailedEvent(Recovery.this.upstream, this.method,
					dead.generation(), failure.getMessage(), trigger()));
		}

	}

}
