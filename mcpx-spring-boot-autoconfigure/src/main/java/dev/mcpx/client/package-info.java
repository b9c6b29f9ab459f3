/**
 * The client API: {@link dev.mcpx.client.McpClient} for one upstream MCP server, built with
 * {@link dev.mcpx.client.McpClientBuilder}, and what an application plugs into it
 * (credentials, an input handler, a notification listener). The top layer of the client
 * core: it assembles the layers below and nothing below imports it (see
 * {@code docs/architecture.md}, "Layers").
 */
@NullMarked
package dev.mcpx.client;

import org.jspecify.annotations.NullMarked;
