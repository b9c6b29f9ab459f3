package dev.mcpx.client.internal.protocol;

import java.io.ByteArrayOutputStream;

import org.jspecify.annotations.Nullable;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes and reads JSON-RPC 2.0 messages. Thread-safe; one per client, so no mapper is
 * created per call.
 */
public final class JsonRpc {

	private static final String VERSION = "2.0";

	private final JsonMapper mapper;

	/**
	 * Whether a response's envelope may be streamed ({@link #decode(byte[])}): only when the
	 * mapper reads integers as the plain tree does, so that both paths build equal ids.
	 */
	private final boolean streamEnvelope;

	/** How this mapper's trees may be handled ({@link JsonTrees}), once known. */
	private volatile JsonTrees.@Nullable Handling trees;

	/**
	 * Creates a codec on the given mapper.
	 * @param mapper the mapper used for every message
	 */
	public JsonRpc(JsonMapper mapper) {
		this.mapper = mapper;
		this.streamEnvelope = !mapper.isEnabled(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
				&& !mapper.isEnabled(DeserializationFeature.USE_LONG_FOR_INTS);
	}

	private JsonTrees.Handling trees() {
		JsonTrees.Handling trees = this.trees;
		if (trees == null) {
			trees = JsonTrees.handling(this.mapper, this.streamEnvelope);
			this.trees = trees;
		}
		return trees;
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
					JsonTrees.writeNode(this.mapper, generator, params);
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
				? JsonTrees.wholeValue(this.mapper.getNodeFactory(), () -> this.mapper.createParser(json)) : null;
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
				? JsonTrees.wholeValue(this.mapper.getNodeFactory(), () -> this.mapper.createParser(json)) : null;
		return (built != null) ? built : this.mapper.readTree(json);
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
						result = trees().build() ? JsonTrees.node(this.mapper.getNodeFactory(), parser, value, 0)
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
