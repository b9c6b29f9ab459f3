package dev.mcpx.client.error;

/**
 * A call started on a client that was closed, or on an upstream that was removed from (or
 * replaced in) {@link dev.mcpx.client.McpClients}. Nothing was sent: the call may be made
 * again on the upstream's current client, if it has one.
 */
public class McpClientClosedException extends McpException {

	/**
	 * Creates an exception for a call refused by a closed client.
	 * @param upstream the upstream name
	 * @param why why the client is closed, for example "it was removed"
	 */
	public McpClientClosedException(String upstream, String why) {
		super(upstream, "the client is closed (" + why + "); the call was not sent", null);
	}

}
