package dev.mcpx.client.internal.transport;

import dev.mcpx.client.internal.protocol.JsonRpcMessage;

/**
 * Receives what an upstream sends the client other than the response being awaited: a
 * notification or a server request. Called on the thread that read it.
 */
@FunctionalInterface
public interface InboundMessages {

	/** Receives nothing: for exchanges on which nothing else may arrive. */
	InboundMessages NONE = (message) -> {
	};

	/**
	 * Receives one message.
	 * @param message a notification, a request, or a response to no pending request
	 */
	void receive(JsonRpcMessage message);

}
