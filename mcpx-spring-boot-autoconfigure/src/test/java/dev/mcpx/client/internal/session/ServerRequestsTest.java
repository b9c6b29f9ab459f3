package dev.mcpx.client.internal.session;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.JsonRpcMessage;
import dev.mcpx.client.internal.protocol.Redaction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ServerRequests} alone: which requests it answers, from which thread, within what
 * time, and what an answer carries (2025-11-25 basic §Responses; client/elicitation §Requested
 * Schema; docs/architecture.md, "Server requests").
 */
class ServerRequestsTest {

	private static final JsonRpc jsonRpc = new JsonRpc(JsonMapper.shared());

	private ServerRequests requests;

	@AfterEach
	void close() {
		if (this.requests != null) {
			this.requests.close();
		}
	}

	@Test
	void theCapabilitiesDeclaredAreThoseTheHandlerAnswers() {
		this.requests = requests(Set.of("elicitation/create", "roots/list"), (method) -> null, Duration.ofSeconds(5));
		ObjectNode capabilities = this.requests.clientCapabilities();
		assertThat(capabilities.has("elicitation")).isTrue();
		assertThat(capabilities.path("elicitation").has("form")).isTrue();
		assertThat(capabilities.path("roots").path("listChanged").asBoolean()).isTrue();
		assertThat(capabilities.has("sampling")).isFalse();
		assertThat(new ServerRequests("fake", jsonRpc).clientCapabilities().isEmpty()).isTrue();
	}

	@Test
	void aMethodTheHandlerDoesNotDeclareIsMethodNotFoundWithoutAskingIt() throws Exception {
		this.requests = requests(Set.of("elicitation/create"), (method) -> {
			throw new AssertionError("asked");
		}, Duration.ofSeconds(5));
		JsonNode answer = answer(request("sampling/createMessage", null));
		assertThat(answer.path("error").path("code").asInt()).isEqualTo(-32601);
	}

	@Test
	void theHandlerRunsOffTheReadingThreadAndAnAcceptedFormGetsItsDefaults() throws Exception {
		Thread reader = Thread.currentThread();
		Thread[] ran = new Thread[1];
		this.requests = requests(Set.of("elicitation/create"), (method) -> {
			ran[0] = Thread.currentThread();
			ObjectNode answer = jsonRpc.object().put("action", "accept");
			answer.putObject("content").put("name", "Grace");
			return answer;
		}, Duration.ofSeconds(5));
		JsonNode params = jsonRpc.parse("{\"message\":\"?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":"
				+ "{\"name\":{\"type\":\"string\",\"default\":\"Ada\"},\"age\":{\"type\":\"integer\",\"default\":36},"
				+ "\"note\":{\"type\":\"string\"}}}}");
		JsonNode content = answer(request("elicitation/create", params)).path("result").path("content");
		assertThat(ran[0]).isNotNull().isNotSameAs(reader);
		assertThat(content.path("name").asString()).isEqualTo("Grace");
		assertThat(content.path("age").asInt()).isEqualTo(36);
		assertThat(content.has("note")).isFalse();
	}

	@Test
	void aDeclinedFormGetsNoDefaults() throws Exception {
		this.requests = requests(Set.of("elicitation/create"), (method) -> jsonRpc.object().put("action", "decline"),
				Duration.ofSeconds(5));
		JsonNode params = jsonRpc.parse("{\"requestedSchema\":{\"properties\":{\"name\":{\"default\":\"Ada\"}}}}");
		JsonNode result = answer(request("elicitation/create", params)).path("result");
		assertThat(result.has("content")).isFalse();
	}

	@Test
	void aHandlerThatThrowsIsAnsweredWithAnInternalErrorWithoutTheSecretsSent() throws Exception {
		String secret = "Bearer abcdefghijklmnopqrstuvwxyz";
		this.requests = requests(Set.of("roots/list"), (method) -> {
			throw new IllegalStateException("no roots for " + secret);
		}, Duration.ofSeconds(5));
		CompletableFuture<byte[]> reply = new CompletableFuture<>();
		this.requests.answer(request("roots/list", null), "tools/call", ExchangeOptions.LEGACY, List.of(secret),
				reply::complete);
		JsonNode error = jsonRpc.parse(reply.get(5, TimeUnit.SECONDS)).path("error");
		assertThat(error.path("code").asInt()).isEqualTo(-32603);
		assertThat(error.path("message").asString()).contains("IllegalStateException").doesNotContain("abcdefghij");
	}

	@Test
	void aHandlerThatDoesNotAnswerInTimeIsAnsweredWithAnError() throws Exception {
		this.requests = requests(Set.of("roots/list"), (method) -> {
			try {
				Thread.sleep(30_000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return jsonRpc.object();
		}, Duration.ofMillis(100));
		JsonNode error = answer(request("roots/list", null)).path("error");
		assertThat(error.path("code").asInt()).isEqualTo(-32603);
		assertThat(error.path("message").asString()).contains("did not answer within 100 ms");
	}

	@Test
	void aModernStreamsRequestIsDropped() {
		this.requests = requests(Set.of("roots/list"), (method) -> jsonRpc.object(), Duration.ofSeconds(5));
		CompletableFuture<byte[]> reply = new CompletableFuture<>();
		this.requests.answer(request("ping", null), "tools/call", ExchangeOptions.MODERN, List.of(), reply::complete);
		assertThat(reply).isNotDone();
	}

	private JsonNode answer(JsonRpcMessage.Request request) throws Exception {
		CompletableFuture<byte[]> reply = new CompletableFuture<>();
		this.requests.answer(request, "tools/call", ExchangeOptions.LEGACY, List.of(), reply::complete);
		return jsonRpc.parse(reply.get(5, TimeUnit.SECONDS));
	}

	private static JsonRpcMessage.Request request(String method, @Nullable JsonNode params) {
		return new JsonRpcMessage.Request(jsonRpc.mapper().valueToTree(7), method, params);
	}

	private static ServerRequests requests(Set<String> methods, Function<String, JsonNode> answers, Duration timeout) {
		InputAnswers handler = new InputAnswers() {

			@Override
			public Set<String> methods() {
				return methods;
			}

			@Override
			public JsonNode answer(String key, String method, @Nullable JsonNode params, String originalMethod) {
				return answers.apply(method);
			}

		};
		return new ServerRequests("fake", jsonRpc, handler, timeout, new Redaction(), Runnable::run);
	}

}
