package dev.mcpx.client.model;

import org.jspecify.annotations.Nullable;

/**
 * The name and version an MCP implementation declares for itself.
 *
 * @param name the programmatic name
 * @param version the version
 * @param title a human-readable title
 */
public record Implementation(String name, String version, @Nullable String title) {
}
