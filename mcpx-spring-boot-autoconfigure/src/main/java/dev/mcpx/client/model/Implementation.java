package dev.mcpx.client.model;

/**
 * The name and version an MCP implementation declares for itself.
 *
 * @param name the programmatic name
 * @param version the version
 * @param title a human-readable title, or {@code null}
 */
public record Implementation(String name, String version, String title) {
}
