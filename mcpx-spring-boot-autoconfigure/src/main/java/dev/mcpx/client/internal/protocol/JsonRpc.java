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
 * Writes and reads JSON-RPC 2.0 messages. Thread-safe; one per client, so no mapper is
 * created per call.
 */
public final class JsonRpc {

	private static final String VERSION = "2.0";

	/** Deeper results are left to the mapper, which reads any depth without recursion. */
	private static final int MAX_BUILT_DEPTH = 64;

	/**
	 * How each mapper's trees may be handled, checked once per mapper (every client built
	 * without a mapper shares one) and on first use, not while an application with many
	 * upstreams starts. Weak keys: a mapper is not held after its clients are gone.
	 */
	private static final Map<JsonMapper, TreeHandling> TREE_HANDLING = Collections
		.synchronizedMap(new WeakHashMap<>());

	private final JsonMapper mapper;

	/**
	 * Whether a response's envelope may be streamed ({@link #decode(byte[])}): only when the
	 * mapper reads integers as the plain tree does, so that both paths build equal ids.
	 */
	private final boolean streamEnvelope;

	/** This mapper's {@link TreeHandling}, once known. */
	private volatile @Nullable TreeHandling trees;

	/**
	 * Creates a codec on the given mapper.
	 * @param mapper the mapper used for every message
	 */
	public JsonRpc(JsonMapper mapper) {
		this.mapper = mapper;
		this.streamEnvelope = !mapper.isEnabled(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
				&& !mapper.isEnabled(DeserializationFeature.USE_LONG_FOR_INTS);
	}

	/**
	 * How a mapper's trees may be handled.
	 *
	 * @param walk whether parameters may be written node by node ({@link #writeNode}): the
	 * mapper writes a tree exactly as the generator alone does. The mapper's own
	 * {@code writeTree} looks a serializer up for every call.
	 * @param build whether a streamed response's result, and any tree
	 * {@link #parse(byte[])} reads, may be built node by node ({@link #node}): the mapper
	 * reads a tree as that does. The mapper's own tree reading sets up a deserialization
	 * context for every message.
	 */
	private record TreeHandling(boolean walk, boolean build) {
	}

	private TreeHandling trees() {
		TreeHandling trees = this.trees;
		if (trees == null) {
			boolean streamEnvelope = this.streamEnvelope;
			trees = TREE_HANDLING.computeIfAbsent(this.mapper,
					(mapper) -> new TreeHandling(writesTreesPlainly(mapper),
							streamEnvelope && readsTreesPlainly(mapper)));
			this.trees = trees;
		}
		return trees;
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
	 * The mapper, for building parameters.
	 * @return the mapper
	 */
	public JsonMapper mapper() {
		return this.mapper;
	}

	/**
	 * A new empty JSON object.
	 * @return the object
	 */
	public ObjectNode object() {
		return this.mapper.createObjectNode();
	}

	/**
	 * Serializes a request.
	 * @param id the request id
	 * @param method the method
	 * @param params the parameters, absent for none
	 * @return the UTF-8 JSON bytes
	 */
	public byte[] request(long id, String method, @Nullable JsonNode params) {
		return write(true, id, method, params);
	}

	/**
	 * Serializes a notification.
	 * @param method the method
	 * @param params the parameters, absent for none
	 * @return the UTF-8 JSON bytes
	 */
	public byte[] notification(String method, @Nullable JsonNode params) {
		return write(false, 0, method, params);
	}

	/** Streams the envelope straight to bytes: no tree is built around the parameters. */
	private byte[] write(boolean hasId, long id, String method, @Nullable JsonNode params) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(256);
		try (JsonGenerator generator = this.mapper.createGenerator(out)) {
			generator.writeStartObject();
			generator.writeStringProperty("jsonrpc", VERSION);
			if (hasId) {
				generator.writeNumberProperty("id", id);
			}
			generator.writeStringProperty("method", method);
			if (params != null) {
				generator.writeName("params");
				if (trees().walk()) {
					writeNode(this.mapper, generator, params);
				}
				else {
					this.mapper.writeTree(generator, params);
				}
			}
			generator.writeEndObject();
		}
		return out.toByteArray();
	}

	/**
	 * Writes a tree with the generator alone, as {@code ObjectNode} and its kin write
	 * themselves under the default features; any other node (binary, POJO, a subclass) is
	 * left to the mapper.
	 */
	private static void writeNode(JsonMapper mapper, JsonGenerator generator, JsonNode node) {
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
	 * Serializes a successful response to a server request.
	 * @param id the id of the server's request
	 * @param result the result
	 * @return the UTF-8 JSON bytes
	 */
	public byte[] result(JsonNode id, JsonNode result) {
		ObjectNode message = envelope();
		message.set("id", id);
		message.set("result", result);
		return this.mapper.writeValueAsBytes(message);
	}

	/**
	 * Serializes an error response to a server request.
	 * @param id the id of the server's request
	 * @param code the error code
	 * @param text the error message
	 * @return the UTF-8 JSON bytes
	 */
	public byte[] error(JsonNode id, int code, String text) {
		ObjectNode message = envelope();
		message.set("id", id);
		ObjectNode error = message.putObject("error");
		error.put("code", code);
		error.put("message", text);
		return this.mapper.writeValueAsBytes(message);
	}

	/**
	 * Parses bytes as one JSON value, into the tree the mapper would read.
	 * @param json the bytes
	 * @return the tree
	 * @throws JacksonException if the bytes are not JSON
	 */
	public JsonNode parse(byte[] json) {
		JsonNode built = trees().build()
				? wholeValue(this.mapper.getNodeFactory(), () -> this.mapper.createParser(json)) : null;
		return (built != null) ? built : this.mapper.readTree(json);
	}

	/**
	 * Parses text as one JSON value, into the tree the mapper would read.
	 * @param json the text
	 * @return the tree
	 * @throws JacksonException if the text is not JSON
	 */
	public JsonNode parse(String json) {
		JsonNode built = trees().build()
				? wholeValue(this.mapper.getNodeFactory(), () -> this.mapper.createParser(json)) : null;
		return (built != null) ? built : this.mapper.readTree(json);
	}

	/**
	 * One value and nothing after it, built by {@link #node}; {@code null} for anything else
	 * (no value, trailing content, malformed JSON, or what {@code node} leaves to the
	 * mapper), which the mapper then reads, or refuses, itself.
	 */
	private static @Nullable JsonNode wholeValue(JsonNodeFactory nodes, Supplier<JsonParser> parsers) {
		try (JsonParser parser = parsers.get()) {
			JsonNode built = node(nodes, parser, parser.nextToken(), 0);
			return (built != null && parser.nextToken() == null) ? built : null;
		}
		catch (JacksonException ex) {
			return null; // the mapper's reading reports it
		}
	}

	/**
	 * Parses and classifies one message: {@link #read(JsonNode) read}{@code (}{@link #parse(byte[])
	 * parse}{@code (json))} in one pass where it can. The common message, a successful
	 * response, is streamed: its envelope ({@code jsonrpc}, {@code id}) is read token by
	 * token and only its {@code result} becomes a tree. Anything else (a request, a
	 * notification, an error, a message that is malformed or unusual in any way) is parsed
	 * as a whole tree and classified by {@link #read(JsonNode)}, so every message yields the
	 * same value and every failure the same exception as on that path.
	 * @param json the bytes of one JSON value
	 * @return the message
	 * @throws JacksonException if the bytes are not JSON
	 * @throws MalformedMessageException if the value is not a JSON-RPC 2.0 message
	 */
	public JsonRpcMessage decode(byte[] json) {
		JsonRpcMessage.Response response = this.streamEnvelope ? streamedResponse(json, null) : null;
		return (response != null) ? response : read(parse(json));
	}

	/**
	 * Parses and classifies one message given as text, as {@link #decode(byte[])} does.
	 * @param json one JSON value
	 * @return the message
	 * @throws JacksonException if the text is not JSON
	 * @throws MalformedMessageException if the value is not a JSON-RPC 2.0 message
	 */
	public JsonRpcMessage decode(String json) {
		JsonRpcMessage.Response response = this.streamEnvelope ? streamedResponse(null, json) : null;
		return (response != null) ? response : read(parse(json));
	}

	/**
	 * A successful response read in one pass, or {@code null} when the message is anything
	 * else or anything is unusual about it (the caller then takes the tree path).
	 */
	JsonRpcMessage.@Nullable Response streamedResponse(byte @Nullable [] bytes, @Nullable String text) {
		try (JsonParser parser = (bytes != null) ? this.mapper.createParser(bytes) : this.mapper.createParser(text)) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				return null;
			}
			boolean version = false;
			JsonNode id = null;
			JsonNode result = null;
			for (String name = parser.nextName(); name != null; name = parser.nextName()) {
				JsonToken value = parser.nextToken();
				switch (name) {
					case "jsonrpc" -> {
						if (version || value != JsonToken.VALUE_STRING || !VERSION.equals(parser.getString())) {
							return null;
						}
						version = true;
					}
					case "id" -> {
						if (id != null) {
							return null;
						}
						id = streamedId(parser, value);
						if (id == null) {
							return null;
						}
					}
					case "result" -> {
						if (result != null || value == JsonToken.VALUE_NULL) {
							return null;
						}
						result = trees().build() ? node(this.mapper.getNodeFactory(), parser, value, 0)
								: parser.readValueAsTree();
						if (result == null) {
							return null;
						}
					}
					// a request, a notification or an error: the tree path classifies them
					case "method", "error" -> {
						return null;
					}
					// members JSON-RPC does not define are ignored, as on the tree path
					default -> parser.skipChildren();
				}
			}
			if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null || !version || id == null
					|| result == null) {
				return null; // trailing content or a missing member: the tree path says what is wrong
			}
			return new JsonRpcMessage.Response(id, result, null);
		}
		catch (JacksonException ex) {
			return null; // the tree path reports it
		}
	}

	/**
	 * The value at the parser's current token as the mapper's tree reading builds it under
	 * the features {@link #readsTreesPlainly} checks, or {@code null} for anything that
	 * reading would treat otherwise (a duplicate property, a float the parser already holds
	 * as a decimal, a token JSON text does not have, nesting deeper than a result needs),
	 * which sends the whole message down the tree path.
	 */
	private static @Nullable JsonNode node(JsonNodeFactory nodes, JsonParser parser, @Nullable JsonToken token,
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

	/** A string or an integer id, as the tree would hold it; {@code null} for anything else. */
	private @Nullable JsonNode streamedId(JsonParser parser, JsonToken value) {
		if (value == JsonToken.VALUE_STRING) {
			return this.mapper.getNodeFactory().stringNode(parser.getString());
		}
		if (value == JsonToken.VALUE_NUMBER_INT) {
			return switch (parser.getNumberType()) {
				case INT -> this.mapper.getNodeFactory().numberNode(parser.getIntValue());
				case LONG -> this.mapper.getNodeFactory().numberNode(parser.getLongValue());
				default -> null;
			};
		}
		return null;
	}

	/**
	 * Classifies a JSON value as a JSON-RPC message.
	 * @param json the value
	 * @return the message
	 * @throws MalformedMessageException if the value is not a JSON-RPC 2.0 message
	 */
	public JsonRpcMessage read(JsonNode json) {
		if (json == null || !json.isObject()) {
			throw new MalformedMessageException("not a JSON object");
		}
		JsonNode version = json.get("jsonrpc");
		if (version == null || !version.isString() || !VERSION.equals(version.stringValue())) {
			throw new MalformedMessageException("missing \"jsonrpc\": \"2.0\"");
		}
		JsonNode method = json.get("method");
		JsonNode id = json.get("id");
		if (method != null) {
			if (!method.isString()) {
				throw new MalformedMessageException("\"method\" is not a string");
			}
			if (id == null) {
				return new JsonRpcMessage.Notification(method.stringValue(), json.get("params"));
			}
			requireValidId(id);
			return new JsonRpcMessage.Request(id, method.stringValue(), json.get("params"));
		}
		if (id == null) {
			throw new MalformedMessageException("neither \"method\" nor \"id\"");
		}
		JsonNode result = json.get("result");
		JsonNode error = json.get("error");
		if ((result == null) == (error == null)) {
			throw new MalformedMessageException("a response needs exactly one of \"result\" and \"error\"");
		}
		if (error != null) {
			if (!error.isObject() || !error.path("code").isIntegralNumber() || !error.path("code").canConvertToInt()) {
				throw new MalformedMessageException("\"error\" lacks an integer \"code\"");
			}
			return new JsonRpcMessage.Response(id, null, new JsonRpcError(error.get("code").intValue(),
					error.path("message").asString(""), error.get("data")));
		}
		return new JsonRpcMessage.Response(id, result, null);
	}

	private static void requireValidId(JsonNode id) {
		if (!id.isString() && !id.isIntegralNumber()) {
			throw new MalformedMessageException("\"id\" is neither a string nor an integer");
		}
	}

	private ObjectNode envelope() {
		ObjectNode message = this.mapper.createObjectNode();
		message.put("jsonrpc", VERSION);
		return message;
	}

	/**
	 * A JSON value that is not a JSON-RPC 2.0 message.
	 */
	public static final class MalformedMessageException extends RuntimeException {

		MalformedMessageException(String message) {
			super("Not a JSON-RPC 2.0 message: " + message);
		}

	}

}
