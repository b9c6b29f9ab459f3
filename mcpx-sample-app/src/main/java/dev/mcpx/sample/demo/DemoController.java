package dev.mcpx.sample.demo;

import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Operator controls of the demo upstream: restart it, and see how often each tool ran.
 */
@RestController
@RequestMapping("/demo")
public class DemoController {

	private final DemoUpstream upstream;

	/**
	 * Creates the controller.
	 * @param upstream the demo upstream
	 */
	public DemoController(DemoUpstream upstream) {
		this.upstream = upstream;
	}

	/**
	 * Makes the demo upstream forget every session; clients holding one get 404 next.
	 * @return whether it restarted, and the generation now serving
	 */
	@PostMapping("/restart")
	public Restarted restart() {
		return new Restarted(true, this.upstream.restart());
	}

	/**
	 * How many times each tool really ran on the upstream, across restarts.
	 * @return the counts by tool name
	 */
	@GetMapping("/executions")
	public Map<String, Integer> executions() {
		return this.upstream.executions();
	}

	/**
	 * The answer to a restart.
	 * @param restarted always {@code true}
	 * @param generation the generation now serving
	 */
	public record Restarted(boolean restarted, int generation) {
	}

}
