/**
 * A test peer of mcpx, never published: an MCP server built the way a Spring team builds one,
 * on Spring AI's own server starter ({@code spring-ai-starter-mcp-server-webmvc} 2.0.1, on the
 * MCP Java SDK 2.0.0), with tools declared through Spring AI's annotations. The interop tests
 * of {@code mcpx-spring-boot-autoconfigure} run it as a separate process
 * ({@code testsupport/SpringAiServerPeer}) in its {@code STREAMABLE} and {@code STATELESS} modes.
 */
@NullMarked
package dev.mcpx.testpeer.springai;

import org.jspecify.annotations.NullMarked;
