package dev.mcpx.client.internal.protocol;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.BigIntegerNode;
import tools.jackson.databind.node.BooleanNode;
import tools.jackson.databind.node.DecimalNode;
import tools.jackson.databind.node.DoubleNode;
import tools.jackson.databind.node.FloatNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.LongNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.ShortNode;
import tools.jackson.databind.node.StringNode;

/**
 * Trees written and built node by node, with the generator and parser alone, for
 * {@link JsonRpc}: the mapper's own tree writing and reading set up a serializer lookup or a
 * deserialization context on every message. Used only for a mapper that writes and reads
 * trees exactly so (checked once per mapper, on first use, with a probe tree); anything the
 * mapper would treat otherwise is left to the mapper (docs/architecture.md, "HTTP clients
 * and the hot path").
 */
final class JsonTrees {

	/** Deeper results are left to the mapper, which reads any depth without recursion. */
	private static final int MAX_BUILT_DEPTH = 64;

	/**
	 * How each mapper's trees may be handled, checked once per mapper (every client built
	 * without a mapper shares one) and on first use, not while an application with many
	 * upstreams starts. Weak keys: a mapper is not held after its clients are gone.
	 */
	private static final Map<JsonMapper, Handling> HANDLING = Collections
		.synchronizedMap(new WeakHashMap<>());

	private JsonTrees() {
	}

	/**
	 * How a mapper's trees may be handled.
	 *
	 * @param walk whether parameters may be written node by node ({@link #writeNode}): the
	 * mapper writes a tree exactly as the generator alone does. The mapper's own
	 * {@code writeTree} looks a serializer up for every call.
	 * @param build whether a streamed response's result, and any tree
	 * {@link JsonRpc#parse(byte[])} reads, may be built node by node ({@link #node}): the mapper
	 * reads a tree as that does. The mapper's own tree reading sets up a deserialization
	 * context for every message.
	 */
	record Handling(boolean walk, boolean build) {
	}

	/**
	 * How a mapper's trees may be handled, checked on the first call for that mapper.
	 * @param mapper the mapper
	 * @param streamEnvelope whether a response's envelope may be streamed with this mapper,
	 * which building a streamed result needs
	 * @return how its trees may be handled
	 */
	static Handling handling(JsonMapper mapper, boolean streamEnvelope) {
		return HANDLING.computeIfAbsent(mapper,
				(key) -> new Handling(writesTreesPlainly(key), streamEnvelope && readsTreesPlainly(key)));
	}

	/**
	 * Whether the mapper reads trees as {@link #node} builds them: floats as doubles, null
	 * properties kept, and an equal tree for a probe holding every kind of value.
	 */
	static boolean readsTreesPlainly(JsonMapper mapper) {
		if (mapper.isEnabled(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
				|| mapper.isEnabled(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
				|| !mapper.isEnabled(JsonNodeFeature.READ_NULL_PROPERTIES)) {
			return false;
		}
		String probe = "{\"z\":\"text \\\"quoted\\\" \\u00e9\",\"y\":null,\"x\":[],\"w\":[1,-9223372036854775808,"
				+ "123456789012345678901234567890,1.5,-2.5e-3,1E+400,true,false,null,{}],\"v\":{\"u\":[[{}]]}}";
		JsonNode built = wholeValue(mapper.getNodeFactory(), () -> mapper.createParser(probe));
		try {
			return built != null && built.equals(mapper.readTree(probe));
		}
		catch (JacksonException ex) {
			return false;
		}
	}

	/**
	 * Whether the mapper writes trees as {@link #writeNode} does: no property dropped or
	 * sorted (the features {@code ObjectNode} consults), and the same bytes for a probe
	 * holding every kind of node it writes itself (which catches a custom null serializer,
	 * or a module that writes numbers or strings its own way).
	 */
	static boolean writesTreesPlainly(JsonMapper mapper) {
		if (!mapper.isEnabled(SerializationFeature.WRITE_EMPTY_JSON_ARRAYS)
				|| !mapper.isEnabled(JsonNodeFeature.WRITE_NULL_PROPERTIES)
				|| mapper.isEnabled(JsonNodeFeature.WRITE_PROPERTIES_SORTED)) {
			return false;
		}
		ObjectNode probe = mapper.createObjectNode();
		probe.put("z", "text \"quoted\" \u00e9\u2028\n").putNull("y").putArray("x");
		probe.putArray("w").add(1).add(Long.MAX_VALUE).add((short) 2).add(1.5).add(2.5f)
			.add(new BigDecimal("1.50E+3")).add(new BigInteger("123456789012345678901234567890"))
			.add(true).addNull().addObject();
		try {
			ByteArrayOutputStream walked = new ByteArrayOutputStream();
			try (JsonGenerator generator = mapper.createGenerator(walked)) {
				writeNode(mapper, generator, probe);
			}
			return Arrays.equals(walked.toByteArray(), mapper.writeValueAsBytes(probe));
		}
		catch (JacksonException ex) {
			return false;
		}
	}

	/**
	 * Writes a tree with the generator alone, as {@code ObjectNode} and its kin write
	 * themselves under the default features; any other node (binary, POJO, a subclass) is
	 * left to the mapper.
	 */
	static void writeNode(JsonMapper mapper, JsonGenerator generator, JsonNode node) {
		Class<?> type = node.getClass();
		if (type == ObjectNode.class) {
			generator.writeStartObject(node, node.size());
			for (Map.Entry<String, JsonNode> property : node.properties()) {
				generator.writeName(property.getKey());
				writeNode(mapper, generator, property.getValue());
			}
			generator.writeEndObject();
		}
		else if (type == ArrayNode.class) {
			generator.writeStartArray(node, node.size());
			for (JsonNode element : node.values()) {
				writeNode(mapper, generator, element);
			}
			generator.writeEndArray();
		}
		else if (type == StringNode.class) {
			generator.writeString(node.stringValue());
		}
		else if (type == IntNode.class) {
			generator.writeNumber(node.intValue());
		}
		else if (type == LongNode.class) {
			generator.writeNumber(node.longValue());
		}
		else if (type == BooleanNode.class) {
			generator.writeBoolean(node.booleanValue());
		}
		else if (type == NullNode.class) {
			generator.writeNull();
		}
		else if (type == DoubleNode.class) {
			generator.writeNumber(node.doubleValue());
		}
		else if (type == FloatNode.class) {
			generator.writeNumber(node.floatValue());
		}
		else if (type == ShortNode.class) {
			generator.writeNumber(node.shortValue());
		}
		else if (type == DecimalNode.class) {
			generator.writeNumber(node.decimalValue());
		}
		else if (type == BigIntegerNode.class) {
			generator.writeNumber(node.bigIntegerValue());
		}
		else {
			mapper.writeTree(generator, node);
		}
	}

	/**
	 * One value and nothing after it, built by {@link #node}; {@code null} for anything else
	 * (no value, trailing content, malformed JSON, or what {@code node} leaves to the
	 * mapper), which the mapper then reads, or refuses, itself.
	 */
	static @Nullable JsonNode wholeValue(JsonNodeFactory nodes, Supplier<JsonParser> parsers) {
		try (JsonParser parser = parsers.get()) {
			JsonNode built = node(nodes, parser, parser.nextToken(), 0);
			return (built != null && parser.nextToken() == null) ? built : null;
		}
		catch (JacksonException ex) {
			return null; // the mapper's reading reports it
		}
	}

	/**
	 * The value at the parser's current token as the mapper's tree reading builds it under
	 * the features {@link #readsTreesPlainly} checks, or {@code null} for anything that
	 * reading would treat otherwise (a duplicate property, a float the parser already holds
	 * as a decimal, a token JSON text does not have, nesting deeper than a result needs),
	 * which sends the whole message down the tree path.
	 */
	static @Nullable JsonNode node(JsonNodeFactory nodes, JsonParser parser, @Nullable JsonToken token,
			int depth) {
		if (token == null) {
			return null;
		}
		switch (token) {
			case START_OBJECT -> {
				if (depth >= MAX_BUILT_DEPTH) {
					return null;
				}
				ObjectNode object = nodes.objectNode();
				for (String name = parser.nextName(); name != null; name = parser.nextName()) {
					JsonNode value = node(nodes, parser, parser.nextToken(), depth + 1);
					if (value == null || object.replace(name, value) != null) {
						return null;
					}
				}
				return (parser.currentToken() == JsonToken.END_OBJECT) ? object : null;
			}
			case START_ARRAY -> {
				if (depth >= MAX_BUILT_DEPTH) {
					return null;
				}
				ArrayNode array = nodes.arrayNode();
				for (JsonToken next = parser.nextToken(); next != JsonToken.END_ARRAY; next = parser.nextToken()) {
					JsonNode value = node(nodes, parser, next, depth + 1);
					if (value == null) {
						return null;
					}
					array.add(value);
				}
				return array;
			}
			case VALUE_STRING -> {
				return nodes.stringNode(parser.getString());
			}
			case VALUE_NUMBER_INT -> {
				return switch (parser.getNumberType()) {
					case INT -> nodes.numberNode(parser.getIntValue());
					case LONG -> nodes.numberNode(parser.getLongValue());
					default -> nodes.numberNode(parser.getBigIntegerValue());
				};
			}
			case VALUE_NUMBER_FLOAT -> {
				return switch (parser.getNumberTypeFP()) {
					case BIG_DECIMAL -> null;
					case FLOAT32 -> nodes.numberNode(parser.getFloatValue());
					default -> nodes.numberNode(parser.getDoubleValue());
				};
			}
			case VALUE_TRUE -> {
				return nodes.booleanNode(true);
			}
			case VALUE_FALSE -> {
				return nodes.booleanNode(false);
			}
			case VALUE_NULL -> {
				return nodes.nullNode();
			}
			default -> {
				return null;
			}
		}
	}

}
