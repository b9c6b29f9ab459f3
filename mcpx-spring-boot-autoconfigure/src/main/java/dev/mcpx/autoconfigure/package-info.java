/**
 * Spring Boot auto-configuration of mcpx: the {@code mcpx.*} properties, one
 * {@code McpClient} bean per upstream, customizers, and the bridge of client events to
 * Spring application events.
 */
@NullMarked
package dev.mcpx.autoconfigure;

import org.jspecify.annotations.NullMarked;
