package dev.mcpx.sample;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.mcpx.client.event.McpCatalogueInvalidatedEvent;
import dev.mcpx.client.event.McpEraDetectedEvent;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpRecoveryFailedEvent;
import dev.mcpx.client.event.McpReissueRefusedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpSessionExpiredEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.event.McpStreamResumedEvent;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.model.CatalogueKind;
import dev.mcpx.client.model.ProtocolEra;

/**
 * What the mcpx clients did, in plain words: each mcpx event (an expired session, its
 * recovery, a request sent again or not, a resumed stream, the protocol era detected,
 * cached listings dropped) is logged at INFO and kept in a bounded history (the last
 * {@value #CAPACITY}), served at {@code GET /events}, oldest first.
 * <p>
 * mcpx publishes its events as Spring application events, on the thread of the call that
 * caused them. They all implement the sealed {@link McpEvent}, so one
 * {@code @EventListener} method for it, with a branch per event type, is all it takes.
 * Events carry no secret (the session id is already redacted, no header value), and this
 * class adds none.
 */
@RestController
public class RecoveryTimeline {

	/** How many events the history keeps. */
	static final int CAPACITY = 100;

	private static final Logger logger = LoggerFactory.getLogger(RecoveryTimeline.class);

	private final Deque<Map<String, Object>> history = new ArrayDeque<>(CAPACITY);

	private long sequence;

	/**
	 * The history, oldest first. Each entry has {@code seq} (increasing, never reused),
	 * {@code time}, {@code type}, {@code upstream}, the event's own fields and
	 * {@code message}, the line that was logged.
	 * @return the last {@value #CAPACITY} events
	 */
	@GetMapping("/events")
	public synchronized List<Map<String, Object>> events() {
		return new ArrayList<>(this.history);
	}

	/**
	 * Records any mcpx event: one listener for the sealed {@link McpEvent}, one branch per
	 * event type (an {@code instanceof} chain: a {@code switch} over record patterns needs
	 * Java 21, and the sample runs on 17).
	 * @param event the event
	 */
	@EventListener
	void on(McpEvent event) {
		if (event instanceof McpSessionExpiredEvent expired) {
			record("session-expired", expired.upstream(),
					fields("method", expired.method(), "generation", expired.generation(), "sessionId",
							expired.sessionId(), "status", expired.status()),
					"session generation " + expired.generation() + " expired (HTTP " + expired.status() + " on "
							+ expired.method() + "); re-initializing");
		}
		else if (event instanceof McpSessionRecoveredEvent recovered) {
			long millis = recovered.duration().toMillis();
			record("session-recovered", recovered.upstream(),
					fields("oldGeneration", recovered.oldGeneration(), "newGeneration", recovered.newGeneration(),
							"durationMs", millis),
					"recovered — generation " + recovered.newGeneration() + " replaces " + recovered.oldGeneration()
							+ " in " + millis + " ms");
		}
		else if (event instanceof McpRecoveryFailedEvent failed) {
			record("recovery-failed", failed.upstream(),
					fields("method", failed.method(), "generation", failed.generation(), "cause", failed.cause()),
					"could not replace expired session generation " + failed.generation() + " (found by "
							+ failed.method() + "): " + failed.cause() + "; the next call tries again");
		}
		else if (event instanceof McpRequestReissuedEvent reissued) {
			record("request-reissued", reissued.upstream(),
					fields("method", reissued.method(), "tool", reissued.tool(), "cause", reissued.cause(), "reason",
							reissued.reason()),
					"re-sending " + request(reissued.method(), reissued.tool()) + " after "
							+ words(reissued.cause()) + ": " + reissued.reason());
		}
		else if (event instanceof McpReissueRefusedEvent refused) {
			record("reissue-refused", refused.upstream(),
					fields("method", refused.method(), "tool", refused.tool(), "cause", refused.cause(), "reason",
							refused.reason()),
					"did not re-send " + request(refused.method(), refused.tool()) + " after "
							+ words(refused.cause()) + ", the caller got an error: " + refused.reason());
		}
		else if (event instanceof McpStreamResumedEvent resumed) {
			record("stream-resumed", resumed.upstream(),
					fields("method", resumed.method(), "attempts", resumed.attempts()),
					"the response stream of " + resumed.method() + " broke and was resumed ("
							+ times(resumed.attempts()) + "); nothing was sent twice");
		}
		else if (event instanceof McpEraDetectedEvent detected) {
			record("era-detected", detected.upstream(),
					fields("era", detected.era(), "protocolVersion", detected.protocolVersion(), "previous",
							detected.previous()),
					eraMessage(detected));
		}
		else if (event instanceof McpCatalogueInvalidatedEvent invalidated) {
			List<CatalogueKind> kinds = invalidated.kinds().stream().sorted().toList();
			record("catalogue-invalidated", invalidated.upstream(),
					fields("kinds", kinds.stream().map(Enum::name).toList(), "reason", invalidated.reason()),
					"dropped the cached " + kindWords(kinds) + ": " + invalidated.reason()
							+ "; the next read asks the server");
		}
		else {
			// An event type added to mcpx later still shows, if less nicely.
			record(event.getClass().getSimpleName(), event.upstream(), fields(), event.toString());
		}
	}

	private synchronized void record(String type, String upstream, Map<String, Object> fields, String message) {
		logger.info("{}: {}", upstream, message);
		Map<String, Object> entry = new LinkedHashMap<>();
		entry.put("seq", ++this.sequence);
		entry.put("time", Instant.now().toString());
		entry.put("type", type);
		entry.put("upstream", upstream);
		entry.putAll(fields);
		entry.put("message", message);
		if (this.history.size() == CAPACITY) {
			this.history.removeFirst();
		}
		this.history.addLast(Collections.unmodifiableMap(entry));
	}

	/** Name-value pairs in order; a {@code null} value is left out, an enum is its name. */
	private static Map<String, Object> fields(@Nullable Object... namesAndValues) {
		Map<String, Object> fields = new LinkedHashMap<>();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			Object value = namesAndValues[i + 1];
			if (value != null) {
				fields.put((String) namesAndValues[i], (value instanceof Enum<?> constant) ? constant.name() : value);
			}
		}
		return fields;
	}

	private static String request(String method, @Nullable String tool) {
		return (tool != null) ? method + " '" + tool + "'" : method;
	}

	private static String eraMessage(McpEraDetectedEvent event) {
		String speaks = words(event.era()) + " protocol (version " + event.protocolVersion() + ")";
		if (event.previous() == null) {
			return "speaks the " + speaks;
		}
		if (event.previous() == event.era()) {
			return "still speaks the " + speaks + ", detected again";
		}
		return "now speaks the " + speaks + ", no longer the " + words(event.previous()) + " one";
	}

	private static String words(ProtocolEra era) {
		return switch (era) {
			case LEGACY -> "legacy (session-based)";
			case MODERN -> "modern (stateless)";
		};
	}

	private static String times(int attempts) {
		return (attempts == 1) ? "1 attempt" : attempts + " attempts";
	}

	/** "tools", "tools and prompts", "tools, prompts and resources". */
	private static String kindWords(List<CatalogueKind> kinds) {
		List<String> words = kinds.stream()
			.map((kind) -> kind.name().toLowerCase(Locale.ROOT).replace('_', ' '))
			.toList();
		if (words.isEmpty()) {
			return "listings (none)";
		}
		if (words.size() == 1) {
			return words.get(0) + " listing";
		}
		return String.join(", ", words.subList(0, words.size() - 1)) + " and " + words.get(words.size() - 1)
				+ " listings";
	}

	private static String words(ReplayCause cause) {
		return switch (cause) {
			case SESSION_EXPIRED -> "an expired session";
			case STREAM_LOST -> "a lost response stream";
			case CREDENTIALS_REFRESHED -> "refreshed credentials";
			// A cause added to mcpx later still reads, if less nicely.
			default -> cause.name().toLowerCase(Locale.ROOT).replace('_', ' ');
		};
	}

}
