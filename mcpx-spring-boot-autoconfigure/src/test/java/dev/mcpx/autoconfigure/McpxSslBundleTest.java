package dev.mcpx.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.github.tomakehurst.wiremock.WireMockServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.error.McpException;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TLS to an upstream through a Spring Boot SSL bundle named per upstream
 * ({@code mcpx.clients.<name>.ssl-bundle}): an upstream with a certificate the JVM does not
 * trust is reached only with the bundle that trusts it.
 */
class McpxSslBundleTest {

	private static final String PASSWORD = "changeit";

	@TempDir
	static Path dir;

	private static Path keystore;

	private static WireMockServer upstream;

	@BeforeAll
	static void startHttpsUpstream() throws Exception {
		keystore = dir.resolve("upstream.p12");
		// A self-signed certificate for 127.0.0.1, made by the JDK's own keytool.
		Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
				"-genkeypair", "-alias", "upstream", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
				"-dname", "CN=127.0.0.1", "-ext", "SAN=IP:127.0.0.1,DNS:localhost", "-storetype", "PKCS12",
				"-keystore", keystore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD)
			.redirectErrorStream(true)
			.start();
		assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(keytool.exitValue()).as(new String(keytool.getInputStream().readAllBytes())).isZero();
		upstream = new WireMockServer(wireMockConfig().httpDisabled(true)
			.dynamicHttpsPort()
			.bindAddress("127.0.0.1")
			.keystorePath(keystore.toString())
			.keystorePassword(PASSWORD)
			.keyManagerPassword(PASSWORD)
			.keystoreType("PKCS12")
			.globalTemplating(true));
		upstream.start();
		upstream.stubFor(method("initialize").willReturn(okJson(result("{\"protocolVersion\":\"2025-11-25\","
				+ "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"tls\",\"version\":\"1\"}}"))
			.withHeader("Mcp-Session-Id", "session-tls-0123456789")));
		upstream.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		upstream.stubFor(method("ping").willReturn(okJson(result("{}"))));
	}

	@AfterAll
	static void stopUpstream() throws IOException {
		upstream.stop();
		Files.deleteIfExists(keystore);
	}

	private ApplicationContextRunner contextRunner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, RestClientAutoConfiguration.class,
					McpxAutoConfiguration.class))
			.withPropertyValues("mcpx.clients.tls.url=https://127.0.0.1:" + upstream.httpsPort() + "/mcp",
					"mcpx.clients.tls.protocol=legacy",
					"spring.ssl.bundle.jks.upstream.truststore.location=file:" + keystore,
					"spring.ssl.bundle.jks.upstream.truststore.password=" + PASSWORD,
					"spring.ssl.bundle.jks.upstream.truststore.type=PKCS12");
	}

	@Test
	void theBundleNamedForTheUpstreamTrustsItsCertificate() {
		contextRunner().withPropertyValues("mcpx.clients.tls.ssl-bundle=upstream").run((context) -> {
			McpClient client = context.getBean("tls", McpClient.class);
			client.ping();
			assertThat(client.serverInfo()).hasValueSatisfying((info) -> assertThat(info.name()).isEqualTo("tls"));
		});
	}

	@Test
	void theBundleAppliesOnTheJdkClientToo() {
		contextRunner().withPropertyValues("mcpx.clients.tls.ssl-bundle=upstream")
			.withBean(ClientHttpRequestFactoryBuilder.class, ClientHttpRequestFactoryBuilder::jdk)
			.run((context) -> {
			McpClient client = context.getBean("tls", McpClient.class);
			client.ping();
			assertThat(client.serverInfo()).hasValueSatisfying((info) -> assertThat(info.name()).isEqualTo("tls"));
		});
	}

	@Test
	void withoutTheBundleTheUntrustedCertificateIsRefused() {
		contextRunner().run((context) -> assertThatThrownBy(context.getBean("tls", McpClient.class)::ping)
			.isInstanceOf(McpException.class));
	}

	@Test
	void anUnknownBundleFailsStartupNamingTheProperty() {
		contextRunner().withPropertyValues("mcpx.clients.tls.ssl-bundle=nope").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(new InvalidMcpxPropertyFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
				.contains("mcpx.clients.tls.ssl-bundle")
				.contains("nope");
		});
	}

}
