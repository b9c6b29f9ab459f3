package dev.mcpx.sample.tasks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.mcpx.client.McpClients;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.model.CallToolResult;

/**
 * The task demo: {@code POST /reports/<topic>} asks the {@code reports} upstream for a report, which it compiles as a
 * task ({@link ReportServer}: in this application by default, in a process of its own with the {@code tasks} profile,
 * {@link ReportUpstream}); the call waits on a thread of its own,
 * and the outcome arrives as an {@link McpTaskCompletedEvent}, heard here, logged and listed at {@code GET /reports}.
 * Because the task is in the journal, the outcome arrives even when this application was killed before it and
 * started again: the new process takes the task up and publishes its outcome, once.
 */
@RestController
public class ReportController {

	private static final Logger logger = LoggerFactory.getLogger(ReportController.class);

	private final McpClients clients;

	private final List<Map<String, Object>> reports = new CopyOnWriteArrayList<>();

	ReportController(McpClients clients) {
		this.clients = clients;
	}

	/**
	 * Asks for a report; it arrives later, at {@code GET /reports}.
	 * @param topic what the report is about
	 * @param seconds how long the upstream works on it, 20 s when absent
	 * @return that it was asked for
	 */
	@PostMapping("/reports/{topic}")
	@ResponseStatus(HttpStatus.ACCEPTED)
	public Map<String, Object> compile(@PathVariable String topic, @RequestParam(required = false) @Nullable Integer seconds) {
		Map<String, Object> arguments = (seconds != null) ? Map.of("topic", topic, "seconds", seconds)
				: Map.of("topic", topic);
		Thread caller = new Thread(() -> {
			try {
				this.clients.get("reports").callTool(ReportServer.TOOL, arguments);
			}
			catch (RuntimeException ex) {
				logger.warn("The report on {} failed: {}", topic, ex.getMessage());
			}
		}, "report-" + topic);
		caller.setDaemon(true);
		caller.start();
		return Map.of("topic", topic, "status", "asked");
	}

	/**
	 * The reports that arrived, oldest first.
	 * @return each with its task id, status, text, and whether another process than the one that asked finished it
	 */
	@GetMapping("/reports")
	public List<Map<String, Object>> reports() {
		return new ArrayList<>(this.reports);
	}

	/**
	 * A task's outcome, published once among every process that shares the journal.
	 * @param event the outcome
	 */
	@EventListener
	public void on(McpTaskCompletedEvent event) {
		CallToolResult result = event.result();
		Map<String, Object> report = new LinkedHashMap<>();
		report.put("taskId", event.taskId());
		report.put("status", event.status().wireName());
		report.put("text", (result != null) ? result.text() : String.valueOf(event.failure()));
		report.put("resumedAfterRestart", event.resumedAfterRestart());
		this.reports.add(report);
		logger.info("Report ready ({}{}): {}", event.status().wireName(),
				event.resumedAfterRestart() ? ", finished after a restart" : "", report.get("text"));
	}

}
