package dev.mcpx.autoconfigure.actuate;

import java.util.List;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.event.EventListener;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientsListener;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpUserEvent;
import dev.mcpx.client.event.McpRecoveryFailedEvent;
import dev.mcpx.client.event.McpReissueRefusedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.event.McpStreamNotResumableEvent;
import dev.mcpx.client.event.McpStreamResumedEvent;
import dev.mcpx.client.event.ReplayCause;

/**
 * Counts recoveries from the clients' events, as {@value #NAME} tagged {@code upstream},
 * {@code kind} and {@code outcome}:
 * <ul>
 * <li>a replaced session: {@code session-expiry}, {@code recovered}; a session that could
 * not be replaced: {@code session-expiry}, {@code failed};</li>
 * <li>a request sent again after a lost stream, a refused protocol version, refreshed
 * credentials or a change of era: {@code stream-lost}, {@code version-retry},
 * {@code credentials} or {@code era-change}, {@code recovered} (a request sent again into a
 * replaced session is not counted twice);</li>
 * <li>a restarted stdio server process: {@code process-restart}, {@code recovered} (or
 * {@code failed} when it could not be started again);</li>
 * <li>a request not sent again: the kind of its cause, {@code refused};</li>
 * <li>a legacy stream resumed with {@code Last-Event-ID}: {@code resumption}, {@code recovered}; a
 * broken stream whose event ids cannot resume it (they repeat, or are the session id), so it was
 * handled at once as a stream without ids: {@code resumption}, {@code not-resumable}.</li>
 * </ul>
 * The request timer, {@code mcpx.client.requests}, comes from each client's observation.
 * <p>
 * Registered as a {@link McpClientsListener}, it removes every {@code mcpx.client.*} meter
 * of an upstream that leaves the live set, so that upstreams coming and going leave no
 * meters behind.
 */
public class McpxRecoveryMetrics implements McpClientsListener {

	/** What every meter of an upstream is named under. */
	private static final String METERS = "mcpx.client.";

	/** The counter's name. */
	public static final String NAME = "mcpx.client.recoveries";

	private final MeterRegistry registry;

	/**
	 * Creates the counters' source.
	 * @param registry where the counters go
	 */
	public McpxRecoveryMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	/**
	 * Counts the event if it is a recovery.
	 * @param received any client event
	 */
	@EventListener
	public void onEvent(McpEvent received) {
		// a user's event counts as the event itself: metrics are never tagged by user
		McpEvent event = (received instanceof McpUserEvent user) ? user.event() : received;
		if (event instanceof McpSessionRecoveredEvent recovered) {
			count(event, Kind.of(recovered.trigger()), Outcome.RECOVERED);
		}
		else if (event instanceof McpRecoveryFailedEvent failed) {
			count(event, Kind.of(failed.trigger()), Outcome.FAILED);
		}
		else if (event instanceof McpRequestReissuedEvent reissued) {
			// The replaced session or process was counted once by its McpSessionRecoveredEvent.
			if (reissued.cause() != ReplayCause.SESSION_EXPIRED && reissued.cause() != ReplayCause.PROCESS_EXITED) {
				count(event, Kind.of(reissued.cause()), Outcome.RECOVERED);
			}
		}
		else if (event instanceof McpReissueRefusedEvent refused) {
			count(event, Kind.of(refused.cause()), Outcome.REFUSED);
		}
		else if (event instanceof McpStreamResumedEvent) {
			count(event, Kind.RESUMPTION, Outcome.RECOVERED);
		}
		else if (event instanceof McpStreamNotResumableEvent) {
			count(event, Kind.RESUMPTION, Outcome.NOT_RESUMABLE);
		}
	}

	/**
	 * Removes the meters of an upstream that left the live set.
	 * @param client its client
	 */
	@Override
	public void removed(McpClient client) {
		String upstream = client.name();
		List<Meter> meters = this.registry.getMeters()
			.stream()
			.filter((meter) -> meter.getId().getName().startsWith(METERS)
					&& upstream.equals(meter.getId().getTag("upstream")))
			.toList();
		meters.forEach(this.registry::remove);
	}

	private void count(McpEvent event, Kind kind, Outcome outcome) {
		Counter.builder(NAME)
			.description("Recoveries of MCP clients from upstream restarts and refusals")
			.tag("upstream", event.upstream())
			.tag("kind", kind.tag)
			.tag("outcome", outcome.tag)
			.register(this.registry)
			.increment();
	}

	/**
	 * What was recovered from.
	 */
	enum Kind {

		SESSION_EXPIRY("session-expiry"), STREAM_LOST("stream-lost"), RESUMPTION("resumption"),
		VERSION_RETRY("version-retry"), CREDENTIALS("credentials"), ERA_CHANGE("era-change"),
		HEADER_CORRECTION("header-correction"), PROCESS_RESTART("process-restart");

		final String tag;

		Kind(String tag) {
			this.tag = tag;
		}

		static Kind of(ReplayCause cause) {
			return switch (cause) {
				case SESSION_EXPIRED -> SESSION_EXPIRY;
				case STREAM_LOST -> STREAM_LOST;
				case VERSION_RENEGOTIATED -> VERSION_RETRY;
				case CREDENTIALS_REFRESHED -> CREDENTIALS;
				case ERA_CHANGED -> ERA_CHANGE;
				case HEADERS_CORRECTED -> HEADER_CORRECTION;
				case PROCESS_EXITED -> PROCESS_RESTART;
			};
		}

	}

	/**
	 * How a recovery ended.
	 */
	enum Outcome {

		RECOVERED("recovered"), REFUSED("refused"), FAILED("failed"), NOT_RESUMABLE("not-resumable");

		final String tag;

		Outcome(String tag) {
			this.tag = tag;
		}

	}

}
