package dev.mcpx.client.error;

import java.net.URI;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link McpAuthChallenge#parse}: RFC 9110 §11.6.1 challenges as MCP servers send them
 * (2025-11-25 basic/authorization §Protected Resource Metadata Discovery Requirements, §Scope
 * Challenge Handling).
 */
class McpAuthChallengeTest {

	private static final URI MCP = URI.create("https://mcp.example.com/mcp");

	@Test
	void aBearerChallengeGivesItsResourceMetadataAndScopes() {
		McpAuthChallenge challenge = McpAuthChallenge.parse(401,
				List.of("Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource\", "
						+ "scope=\"files:read files:write\""),
				MCP);
		assertThat(challenge.scheme()).isEqualTo("Bearer");
		assertThat(challenge.resourceMetadata())
			.isEqualTo("https://mcp.example.com/.well-known/oauth-protected-resource");
		assertThat(challenge.scopes()).containsExactly("files:read", "files:write");
		assertThat(challenge.isInsufficientScope()).isFalse();
		assertThat(challenge.resource()).isEqualTo(MCP);
	}

	@Test
	void aForbiddenInsufficientScopeChallengeIsAStepUp() {
		McpAuthChallenge challenge = McpAuthChallenge.parse(403,
				List.of("Bearer error=\"insufficient_scope\",\n scope=\"files:write\", resource_metadata=\"https://m/x\","
						+ " error_description=\"File write permission required, \\\"really\\\"\""),
				MCP);
		assertThat(challenge.isInsufficientScope()).isTrue();
		assertThat(challenge.scopes()).containsExactly("files:write");
		assertThat(challenge.parameters().get("error_description"))
			.isEqualTo("File write permission required, \"really\"");
	}

	@Test
	void theBearerChallengeIsChosenAmongSeveralSchemesInOneOrSeveralHeaders() {
		McpAuthChallenge oneHeader = McpAuthChallenge.parse(401,
				List.of("Basic realm=\"x\", Bearer realm=\"mcp\", scope=read, Negotiate"), MCP);
		assertThat(oneHeader.scheme()).isEqualTo("Bearer");
		assertThat(oneHeader.parameters()).containsEntry("realm", "mcp").containsEntry("scope", "read");
		McpAuthChallenge twoHeaders = McpAuthChallenge.parse(401, List.of("Basic dXNlcjpwYXNz==", "bearer scope=\"a\""),
				MCP);
		assertThat(twoHeaders.scheme()).isEqualTo("bearer");
		assertThat(twoHeaders.scopes()).containsExactly("a");
	}

	@Test
	void noHeaderOrAMalformedOneGivesAChallengeWithoutParametersAndNeverThrows() {
		assertThat(McpAuthChallenge.parse(401, null, MCP).parameters()).isEmpty();
		assertThat(McpAuthChallenge.parse(401, List.of(), MCP).scheme()).isNull();
		for (String malformed : List.of("", ",,,", "=\"x\"", "Bearer scope=\"unterminated", "Bearer ,=,=\"", "\u0000\u00ff")) {
			McpAuthChallenge challenge = McpAuthChallenge.parse(401, List.of(malformed), MCP);
			assertThat(challenge.status()).isEqualTo(401);
		}
		assertThat(McpAuthChallenge.parse(401, List.of("Bearer scope=\"unterminated"), MCP).scopes())
			.containsExactly("unterminated");
	}

}
