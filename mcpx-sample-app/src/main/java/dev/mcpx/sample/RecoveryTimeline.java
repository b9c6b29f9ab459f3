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

import dev.mcpx.client.event.McpRecoveryFailedEvent;
import dev.mcpx.client.event.McpReissueRefusedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpSessionExpiredEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.event.ReplayCause;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * What the mcpx clients did to recover, in plain words: each recovery event is logged at
 * INFO and kept in a bounded history (the last {@value #CAPACITY}), served at
 * {@code GET /events}, oldest first.
 * <p>
 * mcpx publishes its events as Spring application events, on the thread of the call that
 * caused them, so a plain {@code @EventListener} method per event type is all it takes.
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

	@EventListener
	void on(McpSessionExpiredEvent event) {
		record("session-expired", event.upstream(),
				fields("method", event.method(), "generation", event.generation(), "sessionId", event.sessionId(),
						"status", event.status()),
				"session generation " + event.generation() + " expired (HTTP " + event.status() + " on "
						+ event.method() + "); re-initializing");
	}

	@EventListener
	void on(McpSessionRecoveredEvent event) {
		long millis = event.duration().toMillis();
		record("session-recovered", event.upstream(),
				fields("oldGeneration", event.oldGeneration(), "newGeneration", event.newGeneration(), "durationMs",
						millis),
				"recovered — generation " + event.newGeneration() + " replaces " + event.oldGeneration() + " in "
						+ millis + " ms");
	}

	@EventListener
	void on(McpRecoveryFailedEvent event) {
		record("recovery-failed", event.upstream(),
				fields("method", event.method(), "generation", event.generation(), "cause", event.cause()),
				"could not replace expired session generation " + event.generation() + " (found by "
						+ event.method() + "): " + event.cause() + "; the next call tries again");
	}

	@EventListener
	void on(McpRequestReissuedEvent event) {
		record("request-reissued", event.upstream(),
				fields("method", event.method(), "tool", event.tool(), "cause", event.cause(), "reason",
						event.reason()),
				"re-sending " + request(event.method(), event.tool()) + " after " + words(event.cause()) + ": "
						+ event.reason());
	}

	@EventListener
	void on(McpReissueRefusedEvent event) {
		record("reissue-refused", event.upstream(),
				fields("method", event.method(), "tool", event.tool(), "cause", event.cause(), "reason",
						event.reason()),
				"did not re-send " + request(event.method(), event.tool()) + " after " + words(event.cause())
						+ ", the caller got an error: " + event.reason());
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
	private static Map<String, Object> fields(Object... namesAndValues) {
		Map<String, Object> fields = new LinkedHashMap<>();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			Object value = namesAndValues[i + 1];
			if (value != null) {
				fields.put((String) namesAndValues[i], (value instanceof Enum<?> constant) ? constant.name() : value);
			}
		}
		return fields;
	}

	private static String request(String method, String tool) {
		return (tool != null) ? method + " '" + tool + "'" : method;
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
