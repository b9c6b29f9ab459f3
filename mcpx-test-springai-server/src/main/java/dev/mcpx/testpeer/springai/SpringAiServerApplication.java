package dev.mcpx.testpeer.springai;

import java.io.IOException;
import java.io.InputStream;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Spring AI's MCP server with the peer's tools ({@link PeerTools}), what it saw written to an
 * event log ({@link EventLog}), and a few admin endpoints ({@link AdminController}).
 * <p>
 * The mode is Spring AI's own property, {@code spring.ai.mcp.server.protocol}
 * ({@code STREAMABLE} or {@code STATELESS}); the endpoint is Spring AI's default, {@code /mcp}.
 * With {@code --mcpx.peer.exit-with-stdin=true} the process ends when its standard input
 * closes, so that a test JVM that dies without stopping it does not leak it.
 */
@SpringBootApplication
public class SpringAiServerApplication {

	/** The exit status of a process ended on purpose in the middle of a tool call. */
	public static final int HALT_STATUS = 86;

	public static void main(String[] args) {
		if (Boolean.parseBoolean(argument(args, "--mcpx.peer.exit-with-stdin="))) {
			exitWithStdin();
		}
		SpringApplication.run(SpringAiServerApplication.class, args);
	}

	private static String argument(String[] args, String prefix) {
		for (String arg : args) {
			if (arg.startsWith(prefix)) {
				return arg.substring(prefix.length());
			}
		}
		return "";
	}

	private static void exitWithStdin() {
		Thread watcher = new Thread(() -> {
			try (InputStream in = System.in) {
				while (in.read() != -1) {
					// nothing is sent on stdin; its end is the signal
				}
			}
			catch (IOException ex) {
				// a broken stdin is an ended one
			}
			Runtime.getRuntime().halt(0);
		}, "exit-with-stdin");
		watcher.setDaemon(true);
		watcher.start();
	}

}
