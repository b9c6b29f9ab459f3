package dev.mcpx.autoconfigure.actuate;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientStatus;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpTaskRecord;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.event.McpEvent;

/**
 * The {@code mcpx} Actuator endpoint: every upstream's state as its health shows it (but
 * judged without contacting the upstream), the tasks in flight per upstream as the task
 * journal holds them, and the most recent events, oldest first.
 * {@code /actuator/mcpx/<name>} shows one upstream and its events. Only values already
 * safe to show: the clients' status, the events' fields, which hold no secret, and of a
 * task its tool, status and age; a task id is shown redacted like a session id (it names
 * work the server does for whoever holds it: 2025-11-25 basic/utilities/tasks §Security
 * Considerations).
 */
@Endpoint(id = "mcpx")
public class McpxEndpoint {

	/** The characters of a task id shown, as of a session id. */
	private static final int TASK_ID_SHOWN = 4;

	private final McpClients clients;

	private final McpxEventHistory history;

	private final int downAfterFailures;

	private final @Nullable McpTaskStore tasks;

	/**
	 * Creates the endpoint, without tasks.
	 * @param clients the clients to show
	 * @param history the recent events
	 * @param downAfterFailures consecutive failures after which an upstream is shown down
	 */
	public McpxEndpoint(McpClients clients, McpxEventHistory history, int downAfterFailures) {
		this(clients, history, downAfterFailures, null);
	}

	/**
	 * Creates the endpoint.
	 * @param clients the clients to show
	 * @param history the recent events
	 * @param downAfterFailures consecutive failures after which an upstream is shown down
	 * @param tasks the task journal whose unfinished tasks are shown per upstream, or {@code null} for none
	 */
	public McpxEndpoint(McpClients clients, McpxEventHistory history, int downAfterFailures,
			@Nullable McpTaskStore tasks) {
		this.clients = clients;
		this.history = history;
		this.downAfterFailures = downAfterFailures;
		this.tasks = tasks;
	}

	/**
	 * Every upstream and the recent events.
	 * @return the upstreams by name, and the events
	 */
	@ReadOperation
	public McpxDescriptor mcpx() {
		Map<String, Map<String, Object>> upstreams = new LinkedHashMap<>();
		for (McpClient client : this.clients) {
			upstreams.put(client.name(), upstream(client));
		}
		return new McpxDescriptor(upstreams, events(null));
	}

	/**
	 * One upstream and its recent events.
	 * @param name the upstream name
	 * @return the upstream, or {@code null} (answered 404) if there is none of that name
	 */
	@ReadOperation
	public @Nullable UpstreamDescriptor upstream(@Selector String name) {
		return this.clients.find(name).map((client) -> new UpstreamDescriptor(upstream(client), events(name)))
			.orElse(null);
	}

	private Map<String, Object> upstream(McpClient client) {
		McpClientStatus status = client.status();
		McpUpstreamVerdict verdict = McpUpstreamVerdict.of(status, this.downAfterFailures);
		Map<String, Object> shown = new LinkedHashMap<>();
		shown.put("status", verdict.code());
		shown.put("reason", verdict.reason());
		shown.putAll(McpClientStatusDetails.of(status));
		shown.put("catalogue", catalogue(client));
		McpTaskStore journal = this.tasks;
		if (journal != null) {
			tasks(journal, client.name(), shown);
		}
		return shown;
	}

	/**
	 * The upstream's tasks in flight, oldest first: whichever process of the application follows
	 * them, as the journal holds them.
	 */
	private static void tasks(McpTaskStore journal, String upstream, Map<String, Object> shown) {
		List<McpTaskRecord> unfinished;
		try {
			unfinished = journal.unfinished(upstream);
		}
		catch (RuntimeException ex) {
			shown.put("tasks", List.of());
			shown.put("tasksUnknown", "the task journal could not be read");
			return;
		}
		Instant now = Instant.now();
		List<Map<String, Object>> tasks = new ArrayList<>();
		for (McpTaskRecord task : unfinished) {
			Map<String, Object> row = new LinkedHashMap<>();
			row.put("id", redactedTaskId(task.taskId()));
			row.put("tool", task.tool());
			row.put("status", task.status().wireName());
			row.put("ageMs", Math.max(0, Duration.between(task.createdAt(), now).toMillis()));
			row.put("followedHere", journal.owner().equals(task.owner()));
			tasks.add(row);
		}
		shown.put("tasks", tasks);
	}

	/**
	 * A task id as a session id is shown: its first four characters, enough to tell two apart,
	 * too few to ask the server about it.
	 * @param taskId the task id
	 * @return for example {@code "786a…"}, or {@code "…"} for a short id
	 */
	static String redactedTaskId(String taskId) {
		return (taskId.length() <= 2 * TASK_ID_SHOWN) ? "…" : taskId.substring(0, TASK_ID_SHOWN) + "…";
	}

	/** Per cached kind: how many items, when fetched, whether still fresh. */
	private static Map<String, Object> catalogue(McpClient client) {
		Map<String, Object> kinds = new LinkedHashMap<>();
		Instant now = Instant.now();
		client.catalogue().snapshot().forEach((kind, entry) -> {
			Map<String, Object> shown = new LinkedHashMap<>();
			shown.put("size", entry.items().size());
			shown.put("fetchedAt", entry.fetchedAt().toString());
			shown.put("ageMs", Duration.between(entry.fetchedAt(), now).toMillis());
			shown.put("fresh", entry.isFresh(now));
			kinds.put(kind.name().toLowerCase(Locale.ROOT).replace('_', '-'), shown);
		});
		return kinds;
	}

	private List<Map<String, Object>> events(@Nullable String upstream) {
		return this.history.recent()
			.stream()
			.filter((entry) -> upstream == null || upstream.equals(entry.event().upstream()))
			.map(McpxEndpoint::event)
			.toList();
	}

	/**
	 * An event as plain values: when, its type, then each of its fields.
	 */
	static Map<String, Object> event(McpxEventHistory.Entry entry) {
		McpEvent event = entry.event();
		Map<String, Object> shown = new LinkedHashMap<>();
		shown.put("at", entry.at().toString());
		shown.put("type", event.getClass().getSimpleName());
		if (event.getClass().isRecord()) {
			for (RecordComponent component : event.getClass().getRecordComponents()) {
				Object value = value(component, event);
				if (value instanceof String taskId && component.getName().equals("taskId")) {
					value = redactedTaskId(taskId);
				}
				if (value != null) {
					shown.put(component.getName(), value);
				}
			}
		}
		else {
			shown.put("upstream", event.upstream());
		}
		return shown;
	}

	private static @Nullable Object value(RecordComponent component, McpEvent event) {
		try {
			return plain(component.getAccessor().invoke(event));
		}
		catch (ReflectiveOperationException ex) {
			return null;
		}
	}

	/** Strings, numbers and booleans as they are; collections element by element; else text. */
	private static @Nullable Object plain(@Nullable Object value) {
		if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
			return value;
		}
		if (value instanceof Enum<?> constant) {
			return constant.name();
		}
		if (value instanceof Collection<?> values) {
			return values.stream().map(McpxEndpoint::plain).toList();
		}
		return value.toString();
	}

	/**
	 * What {@code /actuator/mcpx} shows.
	 *
	 * @param upstreams each upstream's state, by name
	 * @param events the recent events of all upstreams, oldest first
	 */
	public record McpxDescriptor(Map<String, Map<String, Object>> upstreams, List<Map<String, Object>> events)
			implements OperationResponseBody {
	}

	/**
	 * What {@code /actuator/mcpx/<name>} shows.
	 *
	 * @param upstream the upstream's state
	 * @param events its recent events, oldest first
	 */
	public record UpstreamDescriptor(Map<String, Object> upstream, List<Map<String, Object>> events)
			implements OperationResponseBody {
	}

}
