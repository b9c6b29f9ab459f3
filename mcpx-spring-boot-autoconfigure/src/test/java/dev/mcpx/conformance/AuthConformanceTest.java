package dev.mcpx.conformance;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs every {@code auth/*} client scenario of the official MCP conformance suite
 * ({@code @modelcontextprotocol/conformance} 0.2.0-alpha.12) at every revision the suite
 * lists for it, plus the scenarios of the authorization extensions (client credentials,
 * enterprise-managed authorization, workload identity federation), against
 * {@link ConformanceClient} with {@link dev.mcpx.client.oauth.McpOAuthCredentials}
 * (configured by {@link ConformanceAuthorization}). What each scenario checks is listed in
 * {@code docs/conformance.md}; how a run is judged is {@link ConformanceSuite}'s, and the
 * suite's output of each run stays under
 * {@code target/conformance/<pid>/<revision>/auth/<scenario>/}.
 */
class AuthConformanceTest {

	@ParameterizedTest(name = "{0} at {1}")
	@CsvSource({ "auth/metadata-default, 2025-11-25", "auth/metadata-default, 2026-07-28",
			"auth/metadata-var1, 2025-11-25", "auth/metadata-var1, 2026-07-28", "auth/metadata-var2, 2025-11-25",
			"auth/metadata-var2, 2026-07-28", "auth/metadata-var3, 2025-11-25", "auth/metadata-var3, 2026-07-28",
			"auth/basic-cimd, 2025-11-25", "auth/basic-cimd, 2026-07-28",
			"auth/scope-from-www-authenticate, 2025-11-25", "auth/scope-from-www-authenticate, 2026-07-28",
			"auth/scope-from-scopes-supported, 2025-11-25", "auth/scope-from-scopes-supported, 2026-07-28",
			"auth/scope-omitted-when-undefined, 2025-11-25", "auth/scope-omitted-when-undefined, 2026-07-28",
			"auth/scope-step-up, 2025-11-25", "auth/scope-step-up, 2026-07-28", "auth/scope-retry-limit, 2025-11-25",
			"auth/scope-retry-limit, 2026-07-28", "auth/token-endpoint-auth-basic, 2025-06-18",
			"auth/token-endpoint-auth-basic, 2025-11-25", "auth/token-endpoint-auth-basic, 2026-07-28",
			"auth/token-endpoint-auth-post, 2025-06-18", "auth/token-endpoint-auth-post, 2025-11-25",
			"auth/token-endpoint-auth-post, 2026-07-28", "auth/token-endpoint-auth-none, 2025-06-18",
			"auth/token-endpoint-auth-none, 2025-11-25", "auth/token-endpoint-auth-none, 2026-07-28",
			"auth/pre-registration, 2025-11-25", "auth/pre-registration, 2026-07-28",
			"auth/2025-03-26-oauth-metadata-backcompat, 2025-03-26",
			"auth/2025-03-26-oauth-endpoint-fallback, 2025-03-26", "auth/resource-mismatch, 2026-07-28",
			"auth/offline-access-scope, 2026-07-28", "auth/offline-access-not-supported, 2026-07-28",
			"auth/authorization-server-migration, 2026-07-28", "auth/iss-supported, 2026-07-28",
			"auth/iss-not-advertised, 2026-07-28", "auth/iss-supported-missing, 2026-07-28",
			"auth/iss-wrong-issuer, 2026-07-28", "auth/iss-unexpected, 2026-07-28",
			"auth/iss-normalized, 2026-07-28", "auth/metadata-issuer-mismatch, 2026-07-28" })
	void authorizationScenarioPasses(String scenario, String specVersion) throws Exception {
		ConformanceSuite.assertClientScenarioPasses(scenario, specVersion);
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "auth/client-credentials-basic", "auth/client-credentials-jwt",
			"auth/enterprise-managed-authorization", "auth/wif-jwt-bearer" })
	void clientCredentialsExtensionScenarioPasses(String scenario) throws Exception {
		ConformanceSuite.assertExtensionScenarioPasses(scenario);
	}

}
