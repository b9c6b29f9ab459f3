package dev.mcpx.sample;

import java.util.List;
import java.util.Map;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.Tool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Once the application is ready (its web server, and so the demo upstream, are up), uses
 * the {@code demo} {@link McpClient} once: lists the tools and asks for a forecast. A
 * failure is logged, never fatal: the sample keeps serving its endpoints.
 */
@Component
public class StartupDemo {

	private static final Logger logger = LoggerFactory.getLogger(StartupDemo.class);

	private final ObjectProvider<McpClient> demo;

	private final String city;

	/**
	 * Creates the startup demo.
	 * @param demo the {@code demo} upstream's client, if one is configured
	 * @param city the city to ask a forecast for
	 */
	public StartupDemo(@Qualifier("demo") ObjectProvider<McpClient> demo,
			@Value("${sample.forecast-city:Lisbon}") String city) {
		this.demo = demo;
		this.city = city;
	}

	/**
	 * Talks to the demo upstream once.
	 */
	@EventListener(ApplicationReadyEvent.class)
	public void run() {
		McpClient client = this.demo.getIfAvailable();
		if (client == null) {
			logger.info("No MCP client named 'demo' is configured (mcpx.clients.demo.url), so the startup demo is skipped");
			return;
		}
		try {
			List<Tool> tools = client.listTools();
			logger.info("The demo upstream offers {} tools:", tools.size());
			for (Tool tool : tools) {
				logger.info("  {} — {}", tool.name(), ToolBehaviour.describe(tool.annotations()));
			}
			CallToolResult forecast = client.callTool("get_forecast", Map.of("city", this.city));
			if (forecast.isError()) {
				logger.warn("The demo upstream could not give a forecast for {}: {}", this.city, forecast.text());
			}
			else {
				logger.info("Forecast from the demo upstream: {}", forecast.text());
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Could not talk to the demo upstream at startup: {}", ex.getMessage());
			logger.debug("Startup demo failure", ex);
		}
	}

}
