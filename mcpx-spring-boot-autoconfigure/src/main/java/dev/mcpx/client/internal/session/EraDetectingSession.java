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
import dev.mcpx.client.error.McpUnsupportedVersionException;
import dev.mcpx.client.internal.transport.ListenOutcome;
import dev.mcpx.client.internal.transport.Resumption;
import dev.mcpx.client.model.ProtocolEra;
import tools.jackson.databind.JsonNode;

/**
 * {@code protocol: auto}: finds out which era the upstream speaks and speaks it (2026-07-28
 * basic/versioning §Backward Compatibility; transports/streamable-http §Backward
 * Compatibility). A modern request goes first; a recognized modern error means a modern
 * server, any other rejection a legacy one, which gets an {@code initialize}. The answer is
 * kept for the client's life and detected again when it later fails.
 */
public final class EraDetectingSession implements ProtocolSession {

	private static final Log logger = LogFactory.getLog(EraDetectingSession.class);

	private final String upstream;

	private final LegacySession legacy;

	private final ModernSession modern;

	private final BiConsumer<SessionState, ProtocolEra> detected;

	private final Object detectionLock = new Object();

	private volatile @Nullable ProtocolSession chosen;

	/**
	 * Creates a detector over both eras.
	 * @param upstream the upstream name
	 * @param legacy the legacy session, used when the server is legacy
	 * @param modern the modern exchange, tried first
	 * @param detected told of each detection: the state and the era assumed before (or
	 * {@code null})
	 */
	public EraDetectingSession(String upstream, LegacySession legacy, ModernSession modern,
			BiConsumer<SessionState, ProtocolEra> detected) {
		this.upstream = upstream;
		this.legacy = legacy;
		this.modern = modern;
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
			state = openLegacy();
		}
		catch (NotModernServerException ex) {
			// A legacy server that answered the probe as if it were its own method.
			state = openLegacy();
		}
		catch (McpException ex) {
			if (!EraEvidence.showsLegacyServer(ex) && !EraEvidence.refusesDiscovery(ex)) {
				throw ex;
			}
			logger.debug("[" + this.upstream + "] the modern probe was rejected (" + ex.getMessage()
					+ "); falling back to initialize");
			state = openLegacy();
		}
		this.detected.accept(state, previous);
		return state;
	}

	private SessionState openLegacy() {
		SessionState state = this.legacy.open();
		this.chosen = this.legacy;
		return state;
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
