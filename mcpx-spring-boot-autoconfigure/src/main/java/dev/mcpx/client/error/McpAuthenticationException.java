package dev.mcpx.client.error;

import org.jspecify.annotations.Nullable;

/**
 * The upstream refused the client's credentials (HTTP 401 or 403) and they could not be
 * refreshed. Header values are never part of the message.
 */
public class McpAuthenticationException extends McpHttpStatusException {

	/**
	 * Creates an exception for refused credentials.
	 * @param upstream the upstream name
	 * @param method the method of the refused request
	 * @param status the HTTP status, 401 or 403
	 * @param cause the refusal
	 */
	public McpAuthenticationException(String upstream, String method, int status, @Nullable Throwable cause) {
		super(upstream, method, status, null, null, null, cause);
	}

}
