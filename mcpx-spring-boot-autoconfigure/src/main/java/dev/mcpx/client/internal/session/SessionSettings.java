package dev.mcpx.client.internal.session;

import java.time.Duration;

import dev.mcpx.client.model.Implementation;

/**
 * The fixed settings of one client's sessions.
 *
 * @param upstream the upstream name
 * @param clientInfo how the client introduces itself in {@code initialize}
 * @param requestTimeout the default bound of one request
 * @param handshakeTimeout the bound of one {@code initialize} handshake, independent of any
 * caller's request timeout
 * @param maxMessageBytes the largest message accepted from the server
 */
public record SessionSettings(String upstream, Implementation clientInfo, Duration requestTimeout,
		Duration handshakeTimeout, int maxMessageBytes) {
}
