/**
 * The second demo upstream: an MCP server behind Spring Security's resource server, with
 * Spring Authorization Server issuing its tokens, both inside this application; the server
 * records the subject of every tool call.
 */
@NullMarked
package dev.mcpx.sample.secure;

import org.jspecify.annotations.NullMarked;
