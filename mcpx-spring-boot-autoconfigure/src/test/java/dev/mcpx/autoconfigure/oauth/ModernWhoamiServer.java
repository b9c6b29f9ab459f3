package dev.mcpx.autoconfigure.oauth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A modern-era (2026-07-28) MCP server, stateless, behind the same resource server as the
 * legacy one of {@link UserAuthorizationServerApp}: {@code server/discover} (public, cached
 * a minute), {@code tools/list} whose one tool's description names the caller (so a
 * {@code private} listing, 2026-07-28 server/utilities/caching §Cache Scope), and
 * {@code tools/call} of {@code whoami}, answered with the subject of the token that carried
 * it. It counts every request by method and subject, and never issues a session.
 */
final class ModernWhoamiServer extends HttpServlet {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final UserAuthorizationServerApp.Counters counters;

	ModernWhoamiServer(UserAuthorizationServerApp.Counters counters) {
		this.counters = counters;
	}

	@Override
	protected void doGet(HttpServletRequest request, HttpServletResponse response) {
		response.setStatus(405);
	}

	@Override
	protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
		JsonNode message = json.readTree(request.getInputStream());
		String method = message.path("method").asString("");
		String subject = String.valueOf(request.getAttribute("subject"));
		this.counters.requests.computeIfAbsent(method + " " + subject, (k) -> new AtomicInteger()).incrementAndGet();
		if (!message.has("id")) {
			response.setStatus(202);
			return;
		}
		ObjectNode reply = json.createObjectNode().put("jsonrpc", "2.0");
		reply.set("id", message.get("id"));
		switch (method) {
			case "server/discover" -> reply.set("result", json.readTree("{\"resultType\":\"complete\","
					+ "\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{}},\"ttlMs\":60000,"
					+ "\"cacheScope\":\"public\",\"_meta\":{\"io.modelcontextprotocol/serverInfo\":"
					+ "{\"name\":\"per-user-modern\",\"version\":\"1.0\"}}}"));
			case "tools/list" -> reply.set("result", json.readTree("{\"tools\":[{\"name\":\"whoami\",\"description\":"
					+ "\"answers for " + subject + "\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"text\":"
					+ "{\"type\":\"string\"}}},\"annotations\":{\"readOnlyHint\":true}}],\"ttlMs\":60000,"
					+ "\"cacheScope\":\"private\"}"));
			case "tools/call" -> {
				this.counters.executions.computeIfAbsent(subject, (k) -> new AtomicInteger()).incrementAndGet();
				ObjectNode result = json.createObjectNode();
				result.putArray("content")
					.addObject()
					.put("type", "text")
					.put("text", subject + ":" + message.at("/params/arguments/text").asString(""));
				reply.set("result", result);
			}
			default -> reply.set("error",
					json.createObjectNode().put("code", -32601).put("message", "Method not found: " + method));
		}
		response.setStatus(200);
		response.setContentType("application/json");
		response.getOutputStream().write(json.writeValueAsString(reply).getBytes(StandardCharsets.UTF_8));
	}

	/** Every request the server answered, by {@code "<method> <subject>"}. */
	static int count(ConcurrentHashMap<String, AtomicInteger> requests, String method, String subject) {
		AtomicInteger count = requests.get(method + " " + subject);
		return (count != null) ? count.get() : 0;
	}

}
