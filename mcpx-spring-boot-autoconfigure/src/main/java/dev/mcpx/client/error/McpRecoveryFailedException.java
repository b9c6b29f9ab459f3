package dev.mcpx.client.error;

/**
 * The client tried to recover (re-initialize an expired session) and failed; the cause
 * says why. The next call tries again: no restart of anything is needed.
 */
public class McpRecoveryFailedException extends McpException {

	/**
	 * Creates an exception for a failed recovery.
	 * @param upstream the upstream name
	 * @param message what recovery was attempted
	 * @param cause why it failed
	 */
	public McpRecoveryFailedException(String upstream, String message, Throwable cause) {
		super(upstream, message, cause);
	}

}
