package dev.mcpx.client.oauth;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;

/**
 * The authorization flow of an upstream could not complete: its metadata could not be
 * discovered or failed validation, the authorization server refused a request, or a
 * response broke a rule of the MCP authorization spec. The message names the step and the
 * rule; it never holds a token, a client secret or an authorization code.
 */
public class McpAuthorizationException extends McpException {

	/**
	 * Creates an exception for a failed authorization step.
	 * @param upstream the upstream name
	 * @param message what failed and why
	 * @param cause the underlying failure, or {@code null}
	 */
	public McpAuthorizationException(String upstream, String message, @Nullable Throwable cause) {
		super(upstream, message, cause);
	}

}
