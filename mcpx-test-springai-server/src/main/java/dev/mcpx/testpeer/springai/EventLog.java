package dev.mcpx.testpeer.springai;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the server saw, one JSON object a line, appended to the file named by
 * {@code mcpx.peer.event-log}: {@code {"kind":"start"}} when it is ready,
 * {@code {"kind":"request","method":…,"tool":…,"session":true|false}} for every JSON-RPC
 * message posted to {@code /mcp} (also those then refused), {@code {"kind":"get","resume":…}}
 * for every GET of {@code /mcp} ({@code resume} when it carries {@code Last-Event-ID}), and
 * {@code {"kind":"execution","tool":…,"args":{…}}} for every tool body that ran. Each line is
 * one {@code write} to a file opened for appending, so what was written survives the
 * process being halted, and a restarted process goes on in the same file: the test counts
 * across restarts.
 */
@Component
public class EventLog {

	private static final JsonMapper JSON = JsonMapper.shared();

	private final Path file;

	EventLog(@Value("${mcpx.peer.event-log}") String file) {
		this.file = Path.of(file);
	}

	void started(int port) {
		ObjectNode line = JSON.createObjectNode();
		line.put("kind", "start");
		line.put("port", port);
		line.put("pid", ProcessHandle.current().pid());
		append(line);
	}

	void request(String method, String tool, boolean session) {
		ObjectNode line = JSON.createObjectNode();
		line.put("kind", "request");
		line.put("method", method);
		if (!tool.isEmpty()) {
			line.put("tool", tool);
		}
		line.put("session", session);
		append(line);
	}

	void get(boolean resume) {
		ObjectNode line = JSON.createObjectNode();
		line.put("kind", "get");
		line.put("resume", resume);
		append(line);
	}

	void execution(String tool, Map<String, ?> args) {
		ObjectNode line = JSON.createObjectNode();
		line.put("kind", "execution");
		line.put("tool", tool);
		line.set("args", JSON.valueToTree(args));
		append(line);
	}

	private synchronized void append(ObjectNode line) {
		try {
			Files.write(this.file, (JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8),
					StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot append to " + this.file, ex);
		}
	}

}
