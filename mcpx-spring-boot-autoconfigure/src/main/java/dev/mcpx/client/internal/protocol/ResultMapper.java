package dev.mcpx.client.internal.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.Completion;
import dev.mcpx.client.model.Content;
import dev.mcpx.client.model.GetPromptResult;
import dev.mcpx.client.model.Prompt;
import dev.mcpx.client.model.PromptArgument;
import dev.mcpx.client.model.PromptMessage;
import dev.mcpx.client.model.ReadResourceResult;
import dev.mcpx.client.model.Resource;
import dev.mcpx.client.model.ResourceContents;
import dev.mcpx.client.model.ResourceTemplate;
import dev.mcpx.client.model.TaskSupport;
import dev.mcpx.client.model.Tool;
import dev.mcpx.client.model.ToolAnnotations;
import tools.jackson.databind.JsonNode;

/**
 * Maps MCP result objects (2025-11-25 schema) to the client's immutable model. Lenient
 * where the schema is optional, keeping unknown content as it came.
 */
public final class ResultMapper {

	private ResultMapper() {
	}

	/**
	 * Maps a {@code Tool}.
	 * @param json the tool object
	 * @return the tool
	 */
	public static Tool tool(JsonNode json) {
		JsonNode annotations = json.path("annotations");
		return new Tool(required(json, "name"), text(json, "title"), text(json, "description"), json.get("inputSchema"),
				json.get("outputSchema"), annotations.isObject() ? annotations(annotations) : ToolAnnotations.NONE,
				TaskSupport.of(text(json.path("execution"), "taskSupport")));
	}

	private static ToolAnnotations annotations(JsonNode json) {
		return new ToolAnnotations(text(json, "title"), bool(json, "readOnlyHint"), bool(json, "destructiveHint"),
				bool(json, "idempotentHint"), bool(json, "openWorldHint"));
	}

	/**
	 * Maps a {@code CallToolResult}.
	 * @param json the result object
	 * @return the result
	 */
	public static CallToolResult callToolResult(JsonNode json) {
		return new CallToolResult(contents(json.path("content")), json.get("structuredContent"),
				json.path("isError").asBoolean(false));
	}

	/**
	 * Maps a {@code Prompt}.
	 * @param json the prompt object
	 * @return the prompt
	 */
	public static Prompt prompt(JsonNode json) {
		List<PromptArgument> arguments = new ArrayList<>();
		for (JsonNode argument : json.path("arguments")) {
			arguments.add(new PromptArgument(required(argument, "name"), text(argument, "description"),
					argument.path("required").asBoolean(false)));
		}
		return new Prompt(required(json, "name"), text(json, "title"), text(json, "description"), arguments);
	}

	/**
	 * Maps a {@code GetPromptResult}.
	 * @param json the result object
	 * @return the result
	 */
	public static GetPromptResult getPromptResult(JsonNode json) {
		List<PromptMessage> messages = new ArrayList<>();
		for (JsonNode message : json.path("messages")) {
			messages.add(new PromptMessage(required(message, "role"), content(message.path("content"))));
		}
		return new GetPromptResult(text(json, "description"), messages);
	}

	/**
	 * Maps a {@code Resource}.
	 * @param json the resource object
	 * @return the resource
	 */
	public static Resource resource(JsonNode json) {
		JsonNode size = json.get("size");
		return new Resource(required(json, "uri"), required(json, "name"), text(json, "title"),
				text(json, "description"), text(json, "mimeType"),
				(size != null && size.isIntegralNumber()) ? size.longValue() : null);
	}

	/**
	 * Maps a {@code ResourceTemplate}.
	 * @param json the template object
	 * @return the template
	 */
	public static ResourceTemplate resourceTemplate(JsonNode json) {
		return new ResourceTemplate(required(json, "uriTemplate"), required(json, "name"), text(json, "title"),
				text(json, "description"), text(json, "mimeType"));
	}

	/**
	 * Maps a {@code ReadResourceResult}.
	 * @param json the result object
	 * @return the result
	 */
	public static ReadResourceResult readResourceResult(JsonNode json) {
		List<ResourceContents> contents = new ArrayList<>();
		for (JsonNode item : json.path("contents")) {
			contents.add(resourceContents(item));
		}
		return new ReadResourceResult(contents);
	}

	/**
	 * Maps a {@code CompleteResult}: its string values, the total when the server gave an
	 * integer, and whether it has more (2025-11-25 server/utilities/completion).
	 * @param json the result object
	 * @return the completion
	 */
	public static Completion completion(JsonNode json) {
		JsonNode completion = json.path("completion");
		List<String> values = new ArrayList<>();
		for (JsonNode item : completion.path("values")) {
			if (item.isString()) {
				values.add(item.asString());
			}
		}
		JsonNode total = completion.get("total");
		return new Completion(values, (total != null && total.isIntegralNumber()) ? total.asInt() : null,
				completion.path("hasMore").asBoolean(false));
	}

	private static List<Content> contents(JsonNode array) {
		List<Content> contents = new ArrayList<>();
		for (JsonNode item : array) {
			contents.add(content(item));
		}
		return contents;
	}

	private static Content content(JsonNode json) {
		String type = json.path("type").asString("");
		return switch (type) {
			case "text" -> new Content.Text(json.path("text").asString(""));
			case "image" -> new Content.Image(required(json, "data"), required(json, "mimeType"));
			case "audio" -> new Content.Audio(required(json, "data"), required(json, "mimeType"));
			case "resource_link" -> new Content.Link(required(json, "uri"), required(json, "name"),
					text(json, "description"), text(json, "mimeType"));
			case "resource" -> new Content.Embedded(resourceContents(json.path("resource")));
			default -> new Content.Other(type, json);
		};
	}

	private static ResourceContents resourceContents(JsonNode json) {
		return new ResourceContents(required(json, "uri"), text(json, "mimeType"), text(json, "text"),
				text(json, "blob"));
	}

	/** A string the schema requires: empty when a server left it out, as a text content's text is. */
	private static String required(JsonNode json, String field) {
		return Objects.requireNonNullElse(text(json, field), "");
	}

	private static @Nullable String text(JsonNode json, String field) {
		JsonNode value = json.get(field);
		return (value != null && value.isString()) ? value.stringValue() : null;
	}

	private static @Nullable Boolean bool(JsonNode json, String field) {
		JsonNode value = json.get(field);
		return (value != null && value.isBoolean()) ? value.booleanValue() : null;
	}

}
