package dev.mcpx.testsupport;

import java.net.URI;
import java.util.List;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

/**
 * A scripted MCP upstream on WireMock, as a JUnit 5 extension: one server on loopback at a
 * free port, its stubs and request log reset before each test. Register it on a static
 * field, {@code @RegisterExtension static McpWireMock wire = McpWireMock.upstream();}, and
 * point a client at {@link #mcpUrl()}.
 * <p>
 * An upstream answers JSON-RPC with response templating on, so that {@link #result(String)}
 * echoes the id of the request it answers; {@link #plain()} is a server that needs no
 * templating (an authorization server, a redirect's target). The static helpers stub and
 * find JSON-RPC messages by method on the single endpoint {@value #PATH}.
 */
public final class McpWireMock extends WireMockExtension {

	/** The MCP endpoint every stub and every client uses. */
	public static final String PATH = "/mcp";

	/** A response template that is the JSON-RPC id of the request being answered. */
	public static final String ID = "{{jsonPath request.body '$.id'}}";

	private McpWireMock(WireMockConfiguration options) {
		super(newInstance().options(options));
	}

	/**
	 * An MCP upstream: loopback, a free port, response templating on.
	 * @return the extension, to register on a static field
	 */
	public static McpWireMock upstream() {
		return new McpWireMock(options());
	}

	/**
	 * A server without response templating: loopback, a free port.
	 * @return the extension, to register on a static field
	 */
	public static McpWireMock plain() {
		return new McpWireMock(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
	}

	/**
	 * The options of an {@link #upstream()}, for a {@code WireMockServer} a test starts
	 * itself (on a port of its choosing, or to stop and start it again).
	 * @return loopback, a free port, response templating on
	 */
	public static WireMockConfiguration options() {
		return wireMockConfig().dynamicPort().bindAddress("127.0.0.1").globalTemplating(true);
	}

	/**
	 * The URL of the MCP endpoint.
	 * @return {@code http://127.0.0.1:<port>/mcp}
	 */
	public String mcpUrl() {
		return baseUrl() + PATH;
	}

	/**
	 * The URL of the MCP endpoint, as the client builder takes it.
	 * @return {@code http://127.0.0.1:<port>/mcp}
	 */
	public URI mcpUri() {
		return URI.create(mcpUrl());
	}

	/**
	 * The POSTs of JSON-RPC messages of one method that the server received, oldest first.
	 * @param method the JSON-RPC method, for example {@code tools/call}
	 * @return the requests
	 */
	public List<LoggedRequest> posts(String method) {
		return findAll(sent(method));
	}

	/**
	 * Stubs a POST to {@value #PATH} of a JSON-RPC message of one method.
	 * @param method the JSON-RPC method, for example {@code initialize}
	 * @return the mapping, to complete with a response
	 */
	public static MappingBuilder method(String method) {
		return post(urlEqualTo(PATH)).withRequestBody(matchingJsonPath("$.method", equalTo(method)));
	}

	/**
	 * Matches the POSTs to {@value #PATH} of JSON-RPC messages of one method, to verify or
	 * find them.
	 * @param method the JSON-RPC method
	 * @return the request pattern
	 */
	public static RequestPatternBuilder sent(String method) {
		return postRequestedFor(urlEqualTo(PATH)).withRequestBody(matchingJsonPath("$.method", equalTo(method)));
	}

	/**
	 * A JSON-RPC response template with a result, answering the request's own id.
	 * @param json the result
	 * @return {@code {"jsonrpc":"2.0","id":<the request's id>,"result":<json>}}
	 */
	public static String result(String json) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + ID + ",\"result\":" + json + "}";
	}

}
