package dev.mcpx.client.error;

/**
 * The application asked for a feature the server did not declare in its capabilities, so
 * the client did not send the request (2025-11-25 basic/lifecycle §Operation: both parties
 * MUST only use capabilities that were successfully negotiated).
 */
public class McpCapabilityException extends McpException {

	private final String capability;

	/**
	 * Creates an exception for an undeclared capability.
	 * @param upstream the upstream name
	 * @param method the method that was not sent
	 * @param capability the server capability it needs
	 */
	public McpCapabilityException(String upstream, String method, String capability) {
		super(upstream, method + " needs the server capability '" + capability
				+ "', which the server did not declare; the request was not sent", null);
		this.capability = capability;
	}

	/**
	 * The server capability the request needs.
	 * @return the capability, for example {@code prompts}
	 */
	public String capability() {
		return this.capability;
	}

}
