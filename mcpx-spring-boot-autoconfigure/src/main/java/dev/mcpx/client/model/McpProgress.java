package dev.mcpx.client.model;

import org.jspecify.annotations.Nullable;

/**
 * One progress notification of a request (2025-11-25 basic/utilities/progress).
 *
 * @param progress the progress so far; increases with every notification
 * @param total the total, absent when the server does not know it
 * @param message a human-readable message, absent when the server sent none
 */
public record McpProgress(double progress, @Nullable Double total, @Nullable String message) {
}
