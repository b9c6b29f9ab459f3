package dev.mcpx.client.error;

import java.util.Set;

/**
 * The server needs input from the client to complete a request (a 2026-07-28
 * {@code input_required} result) and the application supplied no {@link dev.mcpx.client.McpInputHandler},
 * or the server kept asking beyond the client's bound.
 */
public class McpInputRequiredException extends McpException {

	private final Set<String> inputMethods;

	/**
	 * Creates an exception for unanswered input requests.
	 * @param upstream the upstream name
	 * @param message what was asked and why it was not answered
	 * @param inputMethods the methods of the input requests, for example
	 * {@code elicitation/create}
	 */
	public McpInputRequiredException(String upstream, String message, Set<String> inputMethods) {
		super(upstream, message, null);
		this.inputMethods = Set.copyOf(inputMethods);
	}

	/**
	 * The methods of the input requests the server sent.
	 * @return the methods
	 */
	public Set<String> inputMethods() {
		return this.inputMethods;
	}

}
