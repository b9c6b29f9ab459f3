package dev.mcpx.client.internal.protocol;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * The {@code x-mcp-header} declarations of one tool's input schema, validated, and the
 * {@code Mcp-Param-*} headers they ask for on a call (2026-07-28
 * transports/streamable-http §Custom Headers from Tool Parameters).
 */
public final class ToolHeaders {

	/** A tool that declares no header parameter. */
	public static final ToolHeaders NONE = new ToolHeaders(List.of(), null);

	private static final String EXTENSION = "x-mcp-header";

	private static final String HEADER_PREFIX = "Mcp-Param-";

	/** JavaScript's safe integer range: integers beyond it are not exact on every peer. */
	private static final long MAX_SAFE_INTEGER = (1L << 53) - 1;

	private static final Set<String> PRIMITIVE_TYPES = Set.of("string", "integer", "boolean");

	private final List<Param> params;

	private final @Nullable String invalidReason;

	private ToolHeaders(List<Param> params, @Nullable String invalidReason) {
		this.params = params;
		this.invalidReason = invalidReason;
	}

	/**
	 * Reads and validates the declarations of an input schema.
	 * @param inputSchema the tool's input schema
	 * @return the declarations; {@link #isValid()} says whether the tool may be used
	 */
	public static ToolHeaders of(@Nullable JsonNode inputSchema) {
		if (inputSchema == null || !inputSchema.isObject()) {
			return NONE;
		}
		List<Param> params = new ArrayList<>();
		try {
			collect(inputSchema, new ArrayList<>(), true, params);
			Set<String> names = new HashSet<>();
			for (Param param : params) {
				if (!names.add(param.name().toLowerCase(Locale.ROOT))) {
					throw new InvalidDeclaration("the header name '" + param.name()
							+ "' is declared twice (names are case-insensitive)");
				}
			}
		}
		catch (InvalidDeclaration ex) {
			return new ToolHeaders(List.of(), ex.reason);
		}
		return params.isEmpty() ? NONE : new ToolHeaders(List.copyOf(params), null);
	}

	/**
	 * Whether every declaration is valid; an invalid tool must not be offered or called.
	 * @return {@code true} when valid
	 */
	public boolean isValid() {
		return this.invalidReason == null;
	}

	/**
	 * Why the declarations are invalid.
	 * @return the reason, absent when valid
	 */
	public @Nullable String invalidReason() {
		return this.invalidReason;
	}

	/**
	 * The headers a call with these arguments carries. A parameter without a value (absent
	 * or null) gets no header.
	 * @param arguments the call's arguments
	 * @return header names ({@code Mcp-Param-<Name>}) to encoded values
	 * @throws IllegalArgumentException if an integer is outside the safe range
	 */
	public Map<String, String> headersFor(JsonNode arguments) {
		if (this.params.isEmpty() || arguments == null) {
			return Map.of();
		}
		Map<String, String> headers = new LinkedHashMap<>();
		for (Param param : this.params) {
			JsonNode value = arguments;
			for (String step : param.path()) {
				value = (value != null) ? value.get(step) : null;
			}
			if (value == null || value.isNull() || value.isMissingNode()) {
				continue;
			}
			headers.put(HEADER_PREFIX + param.name(), HeaderValues.encode(text(param, value)));
		}
		return headers;
	}

	private static String text(Param param, JsonNode value) {
		if (value.isBoolean()) {
			return value.booleanValue() ? "true" : "false";
		}
		if (value.isIntegralNumber()) {
			long number = value.longValue();
			if (!value.canConvertToLong() || Math.abs(number) > MAX_SAFE_INTEGER) {
				throw new IllegalArgumentException("The argument mirrored into header " + HEADER_PREFIX + param.name()
						+ " is outside the safe integer range");
			}
			return Long.toString(number);
		}
		return value.isString() ? value.stringValue() : value.toString();
	}

	/**
	 * Walks the schema: a declaration is valid only on a primitive property reached from
	 * the root through {@code properties} keys alone.
	 */
	private static void collect(JsonNode node, List<String> path, boolean reachable, List<Param> params) {
		JsonNode declared = node.get(EXTENSION);
		if (declared != null) {
			if (!reachable || path.isEmpty()) {
				throw new InvalidDeclaration("'" + EXTENSION + "' is only allowed on a property reached through "
						+ "'properties' alone");
			}
			params.add(new Param(validName(declared), List.copyOf(path)));
			String type = node.path("type").asString("");
			if (!PRIMITIVE_TYPES.contains(type)) {
				throw new InvalidDeclaration("'" + EXTENSION + "' is on property '" + String.join(".", path)
						+ "' of type '" + type + "'; only string, integer and boolean are allowed");
			}
		}
		for (Map.Entry<String, JsonNode> entry : node.properties()) {
			JsonNode child = entry.getValue();
			if (entry.getKey().equals("properties") && child.isObject()) {
				for (Map.Entry<String, JsonNode> property : child.properties()) {
					if (property.getValue().isObject()) {
						List<String> next = new ArrayList<>(path);
						next.add(property.getKey());
						collect(property.getValue(), next, reachable, params);
					}
				}
			}
			else if (child.isObject()) {
				collect(child, path, false, params);
			}
			else if (child.isArray()) {
				for (JsonNode item : child) {
					if (item.isObject()) {
						collect(item, path, false, params);
					}
				}
			}
		}
	}

	private static String validName(JsonNode declared) {
		if (!declared.isString() || declared.stringValue().isEmpty()) {
			throw new InvalidDeclaration("an '" + EXTENSION + "' value is empty or not a string");
		}
		String name = declared.stringValue();
		for (int i = 0; i < name.length(); i++) {
			if (!isTchar(name.charAt(i))) {
				throw new InvalidDeclaration("the header name '" + name.replaceAll("\\p{Cntrl}", "?")
						+ "' is not an HTTP token (RFC 9110 §5.6.2)");
			}
		}
		return name;
	}

	private static boolean isTchar(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
				|| "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
	}

	private record Param(String name, List<String> path) {
	}

	private static final class InvalidDeclaration extends RuntimeException {

		/** The message, never absent: an absent reason would read as valid. */
		private final String reason;

		InvalidDeclaration(String message) {
			super(message, null, false, false);
			this.reason = message;
		}

	}

}
