package dev.mcpx.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A runnable application that uses an mcpx {@code McpClient} against a demo MCP upstream
 * served by the same application at {@code /demo/mcp}.
 * <p>
 * Start it, then try {@code curl localhost:8080/upstreams/demo/tools}, restart the upstream
 * with {@code curl -X POST localhost:8080/demo/restart}, and call a tool again with
 * {@code curl -X POST -H 'Content-Type: application/json' -d '{"city":"Oslo"}'
 * localhost:8080/upstreams/demo/tools/get_forecast}: the client recovers by itself, and
 * {@code curl localhost:8080/events} shows how (see {@link RecoveryTimeline}).
 */
@SpringBootApplication
public class McpxSampleApplication {

	/**
	 * Starts the sample application.
	 * @param args the command line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(McpxSampleApplication.class, args);
	}

}
