package dev.mcpx.testpeer.springai;

import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * What the test drives besides MCP: readiness, and arming a halt.
 */
@RestController
public class AdminController {

	private final PeerTools tools;

	private final EventLog log;

	AdminController(PeerTools tools, EventLog log) {
		this.tools = tools;
		this.log = log;
	}

	@EventListener
	void started(WebServerInitializedEvent event) {
		this.log.started(event.getWebServer().getPort());
	}

	@GetMapping("/admin/ready")
	String ready() {
		return "ready";
	}

	@PostMapping("/admin/halt")
	String halt(@RequestParam String tool) {
		this.tools.haltOnNextCallOf(tool);
		return "armed";
	}

}
