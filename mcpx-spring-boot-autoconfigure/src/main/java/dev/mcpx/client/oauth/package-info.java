/**
 * MCP authorization (2025-11-25 basic/authorization, 2026-07-28 basic/authorization): OAuth
 * 2.1 credentials for an upstream, built on Spring Security's OAuth2 client and Nimbus, both
 * optional dependencies. {@link dev.mcpx.client.oauth.McpOAuthCredentials} discovers the
 * authorization server from the upstream's 401, obtains a client identity and a token, and
 * refreshes or steps it up when the upstream refuses it;
 * {@link dev.mcpx.client.oauth.McpAuthorizationHandler} is the user's step of the
 * authorization code flow and {@link dev.mcpx.client.oauth.McpClientRegistrationStore} keeps
 * dynamically registered clients.
 */
@NullMarked
package dev.mcpx.client.oauth;

import org.jspecify.annotations.NullMarked;
