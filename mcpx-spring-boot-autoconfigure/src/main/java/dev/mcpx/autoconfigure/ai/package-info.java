/**
 * Spring AI integration: every upstream's tools as Spring AI tool callbacks, which call
 * through the recovering {@code McpClient}. Loaded only when Spring AI is on the classpath.
 */
@NullMarked
package dev.mcpx.autoconfigure.ai;

import org.jspecify.annotations.NullMarked;
