package dev.mcpx.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import dev.mcpx.autoconfigure.McpxProperties.Client;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The upstream names the registrar reads from the property names are the keys the binder
 * gives the upstreams of {@link McpxProperties}.
 */
class McpClientBeanRegistrarTest {

	@Test
	void upstreamNamesAreTheKeysTheBinderBindsTheUpstreamsUnder() {
		StandardEnvironment environment = new StandardEnvironment();
		Map<String, Object> file = new LinkedHashMap<>();
		file.put("mcpx.clients.weather.url", "http://127.0.0.1:1/mcp");
		file.put("mcpx.clients.weather.recovery.session-expiry.enabled", "false");
		file.put("mcpx.clients[eu.docs].url", "https://docs.example/mcp");
		file.put("mcpx.clients.Search.url", "https://search.example/mcp");
		file.put("mcpx.clients.local.command", "node");
		file.put("mcpx.clients.local.args[0]", "server.js");
		file.put("mcpx.clients.tools-only.headers.Authorization", "Bearer x");
		file.put("mcpx.defaults.request-timeout", "5s");
		file.put("mcpx.clientsx.other.url", "http://127.0.0.1:1/mcp");
		environment.getPropertySources().addFirst(new MapPropertySource("file", file));
		environment.getPropertySources()
			.addLast(new SystemEnvironmentPropertySource("test-systemEnvironment",
					Map.of("MCPX_CLIENTS_FROMENV_URL", "http://127.0.0.1:1/mcp", "MCPX_CLIENTS_WEATHER_PROTOCOL",
							"legacy")));
		ConfigurationPropertySources.attach(environment);
		Map<String, Client> bound = Binder.get(environment)
			.bind("mcpx.clients", Bindable.mapOf(String.class, Client.class))
			.get();
		assertThat(McpClientBeanRegistrar.upstreamNames(environment)).containsExactlyElementsOf(bound.keySet())
			.containsExactly("weather", "eu.docs", "Search", "local", "tools-only", "fromenv");
	}

	@Test
	void withoutUpstreamsThereAreNoNames() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("file", Map.of("mcpx.defaults.request-timeout", "5s")));
		assertThat(McpClientBeanRegistrar.upstreamNames(environment)).isEmpty();
	}

}
