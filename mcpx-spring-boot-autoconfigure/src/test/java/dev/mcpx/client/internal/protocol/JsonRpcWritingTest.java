package dev.mcpx.client.internal.protocol;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link JsonRpc} writes a request's parameters node by node only with a mapper that writes
 * trees as the generator alone does (that the bytes then agree for any tree is
 * {@code JsonRpcDecoderFuzzTest}'s); a mapper configured to drop, sort or shape properties
 * keeps writing them itself.
 */
class JsonRpcWritingTest {

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	@Test
	void theDefaultMapperIsWalked() {
		// Otherwise the fast path would be silently dead and every request as slow as before.
		assertThat(JsonTrees.writesTreesPlainly(JsonMapper.builder().build())).isTrue();
		assertThat(JsonTrees.writesTreesPlainly(JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()))
			.isTrue();
	}

	@Test
	void aMapperThatShapesTreesWritesThemItself() {
		for (JsonMapper mapper : new JsonMapper[] {
				JsonMapper.builder().disable(JsonNodeFeature.WRITE_NULL_PROPERTIES).build(),
				JsonMapper.builder().enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED).build(),
				JsonMapper.builder().disable(SerializationFeature.WRITE_EMPTY_JSON_ARRAYS).build() }) {
			assertThat(JsonTrees.writesTreesPlainly(mapper)).isFalse();
			ObjectNode params = NODES.objectNode();
			params.put("name", "echo").putNull("cursor").putArray("empty");
			params.putObject("arguments").put("b", 1).put("a", 2);
			// The envelope is always streamed in its own order; the parameters are the mapper's.
			assertThat(new String(new JsonRpc(mapper).request(7, "tools/call", params), StandardCharsets.UTF_8))
				.isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":"
						+ mapper.writeValueAsString(params) + "}")
				.contains(mapper.isEnabled(JsonNodeFeature.WRITE_PROPERTIES_SORTED) ? "{\"a\":2,\"b\":1}"
						: "{\"b\":1,\"a\":2}");
		}
	}

	@Test
	void anIndentingMapperIndentsTheWalkedParameters() {
		JsonMapper mapper = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
		ObjectNode params = NODES.objectNode().put("name", "echo");
		params.putObject("arguments").put("text", "hi").putArray("list").add(1).addObject();
		ObjectNode envelope = NODES.objectNode().put("jsonrpc", "2.0").put("id", 7).put("method", "tools/call");
		envelope.set("params", params);
		assertThat(new String(new JsonRpc(mapper).request(7, "tools/call", params), StandardCharsets.UTF_8))
			.isEqualTo(mapper.writeValueAsString(envelope));
	}

}
