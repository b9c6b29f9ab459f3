/**
 * Spring Boot binding of MCP authorization: {@code mcpx.clients.<name>.oauth.*} makes an
 * upstream's client use {@link dev.mcpx.client.oauth.McpOAuthCredentials}. Active only when
 * Spring Security's OAuth2 client is on the classpath.
 */
@NullMarked
package dev.mcpx.autoconfigure.oauth;

import org.jspecify.annotations.NullMarked;
