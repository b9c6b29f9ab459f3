package dev.mcpx.autoconfigure;

/**
 * Settings of an upstream were refused while the application runs (a refresh of the
 * configuration): the upstream was left as it was (or, if it is new, not added), and every
 * other upstream was refreshed. Published as an application event; carries no value of the
 * setting, only its name and what is wrong with it.
 *
 * @param upstream the upstream name
 * @param property the property refused, for example {@code mcpx.clients.weather.url}
 * @param problem what is wrong with it
 */
public record McpUpstreamRejectedEvent(String upstream, String property, String problem) {
}
