package dev.mcpx.sample.demo;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.BiFunction;
import java.util.function.Function;

import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.JsonSchema;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptArgument;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;

/**
 * What the demo upstream offers: a tiny weather service with three tools whose
 * annotations cover the cases mcpx's replay gate distinguishes (read-only, idempotent,
 * destructive), a prompt and a resource.
 * <p>
 * The weather data lives here rather than in the MCP server, so it survives a simulated
 * restart of the upstream the way a real service's database would: a restart forgets
 * sessions, not cities.
 */
public class DemoTools {

	/** The read-only tool. */
	public static final String GET_FORECAST = "get_forecast";

	/** The idempotent tool. */
	public static final String SET_ALERT_THRESHOLD = "set_alert_threshold";

	/** The destructive tool. */
	public static final String DELETE_CITY = "delete_city";

	/** The URI of the resource listing every known city. */
	public static final String CITIES_URI = "demo://cities";

	// Case-insensitive and sorted, so "lisbon" finds Lisbon and listings read nicely.
	private final Map<String, Integer> temperatures = new ConcurrentSkipListMap<>(String.CASE_INSENSITIVE_ORDER);

	private final Map<String, Number> alertThresholds = new ConcurrentHashMap<>();

	/**
	 * Creates the demo catalogue with a handful of cities.
	 */
	public DemoTools() {
		this.temperatures.put("Lisbon", 21);
		this.temperatures.put("Nairobi", 24);
		this.temperatures.put("Oslo", 4);
		this.temperatures.put("Tokyo", 17);
	}

	List<SyncToolSpecification> tools() {
		return List.of(
				tool(GET_FORECAST, "Get forecast", "Today's forecast for a city.", cityOnly(),
						ToolAnnotations.builder().readOnlyHint(true).openWorldHint(false).build(), this::getForecast),
				tool(SET_ALERT_THRESHOLD, "Set alert threshold",
						"Alerts when a city gets hotter than the given temperature; setting it twice changes nothing.",
						cityAnd("celsius", "number", "Alert threshold in degrees Celsius"),
						ToolAnnotations.builder().readOnlyHint(false).idempotentHint(true).destructiveHint(false)
							.openWorldHint(false).build(),
						this::setAlertThreshold),
				tool(DELETE_CITY, "Delete city", "Forgets a city and its forecast for good.", cityOnly(),
						ToolAnnotations.builder().readOnlyHint(false).destructiveHint(true).idempotentHint(false)
							.openWorldHint(false).build(),
						this::deleteCity));
	}

	List<SyncPromptSpecification> prompts() {
		Prompt prompt = new Prompt("forecast_summary", "Forecast summary",
				"Asks for a short, traveller-friendly summary of a city's forecast.",
				List.of(new PromptArgument("city", "The city to summarize", true)));
		return List.of(new SyncPromptSpecification(prompt, (exchange, request) -> {
			String city = String.valueOf(request.arguments().getOrDefault("city", "Lisbon"));
			String text = "Summarize today's weather in " + city + " for a traveller in one sentence. Forecast: "
					+ forecastText(city);
			return new GetPromptResult("Forecast summary for " + city,
					List.of(new PromptMessage(Role.USER, new TextContent(text))));
		}));
	}

	List<SyncResourceSpecification> resources() {
		Resource cities = Resource.builder()
			.uri(CITIES_URI)
			.name("cities")
			.title("Known cities")
			.description("Every city the demo upstream has a forecast for, one per line")
			.mimeType("text/plain")
			.build();
		return List.of(new SyncResourceSpecification(cities, (exchange, request) -> {
			StringBuilder text = new StringBuilder();
			this.temperatures.forEach((city, celsius) -> text.append(city).append(": ").append(celsius).append(" °C\n"));
			return new ReadResourceResult(List.of(new TextResourceContents(CITIES_URI, "text/plain", text.toString())));
		}));
	}

	private CallToolResult getForecast(Map<String, Object> arguments) {
		String city = city(arguments);
		if (!this.temperatures.containsKey(city)) {
			return error("There is no forecast for '" + city + "'. Known cities: " + String.join(", ",
					this.temperatures.keySet()));
		}
		return text(forecastText(city));
	}

	private CallToolResult setAlertThreshold(Map<String, Object> arguments) {
		String city = city(arguments);
		if (!(arguments.get("celsius") instanceof Number celsius)) {
			return error("'celsius' must be a number");
		}
		if (!this.temperatures.containsKey(city)) {
			return error("There is no city named '" + city + "'");
		}
		this.alertThresholds.put(canonical(city), celsius);
		return text("Alert for " + canonical(city) + " set at " + celsius + " °C");
	}

	private CallToolResult deleteCity(Map<String, Object> arguments) {
		String city = city(arguments);
		String canonical = canonical(city);
		if (this.temperatures.remove(city) == null) {
			return error("There is no city named '" + city + "' (it may have been deleted already)");
		}
		this.alertThresholds.remove(canonical);
		return text(canonical + " is deleted, with its forecast and alert");
	}

	private String forecastText(String city) {
		Integer celsius = this.temperatures.get(city);
		if (celsius == null) {
			return "no forecast for " + city;
		}
		String name = canonical(city);
		String forecast = name + ": " + celsius + " °C, " + ((celsius >= 20) ? "sunny" : "cloudy");
		Number threshold = this.alertThresholds.get(name);
		return (threshold != null) ? forecast + " (alert above " + threshold + " °C)" : forecast;
	}

	/** The city's name as first stored, whatever case the caller used. */
	private String canonical(String city) {
		return this.temperatures.keySet()
			.stream()
			.filter(city::equalsIgnoreCase)
			.findFirst()
			.orElse(city);
	}

	private static String city(Map<String, Object> arguments) {
		Object city = (arguments != null) ? arguments.get("city") : null;
		return (city != null) ? city.toString().trim() : "";
	}

	private static SyncToolSpecification tool(String name, String title, String description, JsonSchema input,
			ToolAnnotations annotations, Function<Map<String, Object>, CallToolResult> body) {
		Tool tool = Tool.builder()
			.name(name)
			.title(title)
			.description(description)
			.inputSchema(input)
			.annotations(annotations)
			.build();
		BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler = (exchange,
				request) -> body.apply(request.arguments());
		return SyncToolSpecification.builder().tool(tool).callHandler(handler).build();
	}

	private static JsonSchema cityOnly() {
		return new JsonSchema("object", Map.of("city", cityProperty()), List.of("city"), false, null, null);
	}

	private static JsonSchema cityAnd(String name, String type, String description) {
		return new JsonSchema("object",
				Map.of("city", cityProperty(), name, Map.of("type", type, "description", description)),
				List.of("city", name), false, null, null);
	}

	private static Map<String, Object> cityProperty() {
		return Map.of("type", "string", "description", "City name, for example Lisbon");
	}

	private static CallToolResult text(String text) {
		return CallToolResult.builder().addTextContent(text).isError(false).build();
	}

	private static CallToolResult error(String text) {
		return CallToolResult.builder().addTextContent(text).isError(true).build();
	}

}
