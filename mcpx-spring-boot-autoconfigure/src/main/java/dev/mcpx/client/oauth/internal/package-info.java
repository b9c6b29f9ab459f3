/**
 * The machinery of {@link dev.mcpx.client.oauth.McpOAuthCredentials}: metadata discovery,
 * URL safety, client registration and token requests. Not an API: anything here may change.
 */
package dev.mcpx.client.oauth.internal;
