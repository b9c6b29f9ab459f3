/**
 * The second demo upstream: an MCP server behind Spring Security's resource server, with
 * Spring Authorization Server issuing its tokens, both inside this application; the server
 * records the subject of every tool call. It is reached as the application (client
 * credentials) and as each signed-in user of the sample, whose token mcpx exchanges for one to
 * the upstream (RFC 8693).
 */
@NullMarked
package dev.mcpx.sample.secure;

import org.jspecify.annotations.NullMarked;
