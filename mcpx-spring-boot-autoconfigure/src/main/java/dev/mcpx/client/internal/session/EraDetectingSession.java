package dev.mcpx.client.internal.session;

import java.io.Closeable;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.BiConsumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpUnsupportedVersionException;
import dev.mcpx.client.internal.transport.ListenOutcome;
import dev.mcpx.client.internal.transport.Resumption;
import dev.mcpx.client.model.ProtocolEra;
import tools.jackson.databind.JsonNode;

/**
 * {@code protocol: auto}: finds out which era the upstream speaks and speaks it (2026-07-28
 * basic/versioning §Backward Compatibility; transports/streamable-http and transports/stdio
 * §Backward Compatibility). {@code server/discover} goes first: a discovery result or a
 * recognized modern error means a modern server; any other answer (any status, any body) a
 * legacy one, which gets an {@code initialize}; no answer means nothing, and the call fails
 * as a recovery failure ({@link EraEvidence#ofDiscovery}). The era found is kept for the
 * client's life and detected again when it later fails.
 */
public final class EraDetectingSession implements ProtocolSession {

	private static final Log logger = LogFactory.getLog(EraDetectingSession.class);

	private final String upstream;

	private final LegacySession legacy;

	private final ModernSession modern;

	private final boolean silenceIsLegacy;

	private final BiConsumer<SessionState, ProtocolEra> detected;

	private final Object detectionLock = new Object();

	private volatile @Nullable ProtocolSession chosen;

	/**
	 * Creates a detector over both eras.
	 * @param upstream the upstream name
	 * @param legacy the legacy session, used when the server is legacy
	 * @param modern the modern exchange, tried first
	 * @param silenceIsLegacy whether a probe left unanswered until its timeout identifies a
	 * legacy server: on stdio it does (2026-07-28 basic/transports/stdio §Backward
	 * Compatibility); over HTTP a timeout may be the network's and says nothing
	 * @param detected told of each detection: the state and the era assumed before (or
	 * {@code null})
	 */
	public EraDetectingSession(String upstream, LegacySession legacy, ModernSession modern, boolean silenceIsLegacy,
			BiConsumer<SessionState, ProtocolEra> detected) {
		this.upstream = upstream;
		this.legacy = legacy;
		this.modern = modern;
		this.silenceIsLegacy = silenceIsLegacy;
		this.detected = detected;
	}

	@Override
	public SessionState open() {
		ProtocolSession current = this.chosen;
		if (current != null) {
			return current.open();
		}
		synchronized (this.detectionLock) {
			if (this.chosen == null) {
				return detect(null);
			}
			return this.chosen.open();
		}
	}

	/** Guarded by {@code detectionLock}. */
	private SessionState detect(@Nullable ProtocolEra previous) {
		SessionState state;
		try {
			state = this.modern.open();
			this.chosen = this.modern;
		}
		catch (McpUnsupportedVersionException ex) {
			if (!speaksLegacyOf(ex.supported())) {
				throw ex;
			}
			state = openLegacy(ex);
		}
		catch (McpException ex) {
			EraEvidence.Discovery verdict = EraEvidence.ofDiscovery(ex, this.silenceIsLegacy);
			if (verdict == EraEvidence.Discovery.UNANSWERED) {
				throw unanswered(ex);
			}
			if (verdict != EraEvidence.Discovery.LEGACY) {
				throw ex;
			}
			logger.debug("[" + this.upstream + "] server/discover was answered as a legacy server answers it ("
					+ EraEvidence.quoted(ex) + "); falling back to initialize");
			state = openLegacy(ex);
		}
		this.detected.accept(state, previous);
		return state;
	}

	/**
	 * The legacy handshake after the probe's answer. When it fails too, the failure names
	 * both answers, so that an operator sees why neither era worked; nothing is cached, and
	 * the next call detects again.
	 */
	private SessionState openLegacy(McpException discovery) {
		SessionState state;
		try {
			state = this.legacy.open();
		}
		catch (McpException ex) {
			throw neitherEra(discovery, ex);
		}
		this.chosen = this.legacy;
		return state;
	}

	/**
	 * No answer to the probe says nothing of the era (the server was not reached, or its
	 * answer was lost): a recovery failure, and the next call detects again.
	 */
	private McpRecoveryFailedException unanswered(McpException failure) {
		return new McpRecoveryFailedException(this.upstream, "server/discover, the probe of the upstream's protocol "
				+ "era, got no answer (" + EraEvidence.quoted(failure) + "); no era is assumed and the next call "
				+ "detects it again", failure);
	}

	private McpException neitherEra(McpException discovery, McpException handshake) {
		McpException failure = switch (EraEvidence.ofDiscovery(handshake, false)) {
			// refused credentials reach the credentials rule; detection runs again after them
			case NOT_ABOUT_ERA -> handshake;
			case UNANSWERED -> new McpRecoveryFailedException(this.upstream, "the upstream answered the 2026-07-28 probe "
					+ "as a legacy server does (" + EraEvidence.quoted(discovery) + "), and the 2025-11-25 handshake "
					+ "that followed got no answer (" + EraEvidence.quoted(handshake) + "); the next call detects the "
					+ "era again", handshake);
			case MODERN, LEGACY -> new McpProtocolException(this.upstream, "the upstream accepted neither era: the "
					+ "2026-07-28 probe: " + EraEvidence.quoted(discovery) + "; the 2025-11-25 handshake: "
					+ EraEvidence.quoted(handshake) + "; the next call detects the era again", handshake);
		};
		failure.addSuppressed(discovery);
		return failure;
	}

	private static boolean speaksLegacyOf(List<String> supported) {
		return supported.stream().anyMatch(LegacySession.SUPPORTED_VERSIONS::contains);
	}

	@Override
	public @Nullable SessionState current() {
		ProtocolSession current = this.chosen;
		return (current != null) ? current.current() : null;
	}

	@Override
	public SessionState renew(SessionState dead, RenewalListener listener) {
		return of(dead).renew(dead, listener);
	}

	@Override
	public void invalidate(SessionState dead) {
		of(dead).invalidate(dead);
	}

	@Override
	public JsonNode request(SessionState on, McpRequest request) {
		return of(on).request(on, request);
	}

	@Override
	public ListenOutcome listen(SessionState on, Consumer<Closeable> opened) {
		return of(on).listen(on, opened);
	}

	@Override
	public JsonNode resume(SessionState on, McpRequest request, Resumption from, Duration remaining) {
		return of(on).resume(on, request, from, remaining);
	}

	@Override
	public @Nullable SessionState negotiate(@Nullable SessionState refused, List<String> supported) {
		return (refused != null) ? of(refused).negotiate(refused, supported) : this.modern.negotiate(null, supported);
	}

	/**
	 * Detects the era again, once for all callers whose requests failed on the old
	 * assumption; callers arriving after a new detection get its state.
	 */
	@Override
	public SessionState redetect(SessionState failed) {
		synchronized (this.detectionLock) {
			ProtocolSession current = this.chosen;
			SessionState currentState = (current != null) ? current.current() : null;
			if (currentState != null && currentState != failed && currentState.era() != failed.era()) {
				return currentState;
			}
			of(failed).invalidate(failed);
			this.chosen = null;
			logger.info("[" + this.upstream + "] the upstream no longer answers as a " + failed.era()
					+ " server; detecting its era again");
			return detect(failed.era());
		}
	}

	@Override
	public void notify(SessionState on, String method, @Nullable JsonNode params, Duration timeout) {
		of(on).notify(on, method, params, timeout);
	}

	@Override
	public EraTraits traits(SessionState on) {
		return of(on).traits(on);
	}

	@Override
	public void close() {
		ProtocolSession current = this.chosen;
		if (current != null) {
			current.close();
		}
	}

	private ProtocolSession of(SessionState state) {
		return (state.era() == ProtocolEra.MODERN) ? this.modern : this.legacy;
	}

}
