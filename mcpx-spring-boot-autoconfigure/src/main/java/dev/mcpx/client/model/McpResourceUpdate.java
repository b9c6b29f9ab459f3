package dev.mcpx.client.model;

/**
 * A subscribed resource changed, or may have (2025-11-25 server/resources §Subscriptions).
 *
 * @param uri the resource URI
 * @param mayHaveMissedUpdates {@code true} when the subscription was established again in a
 * new session (after a recovery, or a notification stream that was reopened): updates between
 * the old session and the new one were not seen, so the application should read the resource
 * again
 */
public record McpResourceUpdate(String uri, boolean mayHaveMissedUpdates) {
}
