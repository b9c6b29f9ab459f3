package dev.mcpx.autoconfigure;

import dev.mcpx.client.McpClientBuilder;

/**
 * Customizes the builder of each auto-configured {@code McpClient} after the properties
 * have been applied. Customizer beans run in {@code @Order}. One that needs the upstream's
 * settings reads them from the {@link McpxUpstreams} bean rather than from the properties.
 */
@FunctionalInterface
public interface McpClientCustomizer {

	/**
	 * Customizes the builder of one upstream's client.
	 * @param name the upstream name
	 * @param builder the builder, with the properties already applied
	 */
	void customize(String name, McpClientBuilder builder);

}
