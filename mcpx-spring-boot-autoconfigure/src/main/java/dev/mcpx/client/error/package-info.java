/**
 * Every failure an {@code McpClient} reports, rooted at
 * {@link dev.mcpx.client.error.McpException}. Each type carries what a caller can act on (the
 * upstream, the method, a status or JSON-RPC code), never the recovery machinery's state,
 * a session id in full or a header value.
 */
@NullMarked
package dev.mcpx.client.error;

import org.jspecify.annotations.NullMarked;
