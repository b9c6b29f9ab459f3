package dev.mcpx.client.internal.protocol;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one-pass path of {@link JsonRpc#decode(byte[])} is the one a successful response
 * takes (that it agrees with the tree path is {@code JsonRpcDecoderFuzzTest}'s): a response
 * that fell back to the tree every time would be correct and as slow as before.
 */
class JsonRpcStreamingTest {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private final JsonRpc jsonRpc = new JsonRpc(JsonMapper.builder().build());

	@Test
	void aSuccessfulResponseIsStreamed() {
		for (String text : new String[] {
				"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"hello\"}],\"isError\":false}}",
				"{\"result\":{},\"id\":\"7\",\"jsonrpc\":\"2.0\"}",
				"{\"jsonrpc\":\"2.0\",\"id\":12345678901,\"result\":[1,2],\"_meta\":{\"a\":[{}]}}" }) {
			JsonRpcMessage.Response streamed = this.jsonRpc.streamedResponse(bytes(text), null);
			assertThat(streamed).as(text).isNotNull().isEqualTo(this.jsonRpc.read(this.jsonRpc.parse(text)));
			assertThat(this.jsonRpc.streamedResponse(null, text)).as(text).isEqualTo(streamed);
		}
	}

	@Test
	void everythingElseTakesTheTree() {
		for (String text : new String[] { "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-1,\"message\":\"x\"}}",
				"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}",
				"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}} trailing", "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":null}",
				"{\"jsonrpc\":\"2.0\",\"id\":7.5,\"result\":{}}" }) {
			assertThat(this.jsonRpc.streamedResponse(bytes(text), null)).as(text).isNull();
		}
	}

	@Test
	void aMapperThatReadsIntegersOtherwiseIsNotStreamed() {
		JsonRpc bigIntegers = new JsonRpc(
				JsonMapper.builder().enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS).build());
		String text = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}";
		assertThat(bigIntegers.decode(bytes(text))).isEqualTo(bigIntegers.read(bigIntegers.parse(text)));
	}

	@Test
	void theResultIsBuiltAsTheMapperReadsIt() {
		// Otherwise every result would be read through the mapper's slower path.
		assertThat(JsonTrees.readsTreesPlainly(MAPPER)).isTrue();
		String deep = "[".repeat(200) + "]".repeat(200);
		for (String result : new String[] { "{\"a\":1,\"a\":2}", "{\"n\":null,\"f\":1.25e3,\"i\":-7}",
				"[9223372036854775807,9223372036854775808,1.0,0.1,-0.0]", deep, "{\"x\":" + deep + "}",
				"\"text\"", "true", "3" }) {
			String text = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":" + result + "}";
			// Against the mapper's own tree: JsonRpc.parse builds trees the same way now.
			assertThat(this.jsonRpc.decode(bytes(text))).as(text).isEqualTo(this.jsonRpc.read(MAPPER.readTree(text)));
		}
	}

	@Test
	void aMapperThatReadsFloatsAsDecimalsReadsTheResultItself() {
		JsonMapper decimals = JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
		assertThat(JsonTrees.readsTreesPlainly(decimals)).isFalse();
		JsonRpc jsonRpc = new JsonRpc(decimals);
		String text = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"f\":1.50}}";
		assertThat(jsonRpc.decode(bytes(text))).isEqualTo(jsonRpc.read(decimals.readTree(text)))
			.isInstanceOfSatisfying(JsonRpcMessage.Response.class,
					(response) -> assertThat(response.result().get("f").isBigDecimal()).isTrue());
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
