package dev.mcpx.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.testsupport.NodePeer;
import dev.mcpx.testsupport.StdioPeer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * stdio upstreams configured with {@code mcpx.clients.<name>.command}: the configuration
 * names of the stdio upstream contract, their validation at startup, lazy start, and that
 * environment values stay out of the log.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpxStdioConfigurationTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class));

	@TempDir
	Path dir;

	private String[] stdioPeer(String name) {
		return new String[] { "mcpx.clients." + name + ".command=" + StdioPeer.node(),
				"mcpx.clients." + name + ".args[0]=" + NodePeer.nodeDirectory().resolve(StdioPeer.SCRIPT),
				"mcpx.clients." + name + ".env.MCPX_STDIO_LOG=" + this.dir.resolve("peer.log"),
				"mcpx.clients." + name + ".protocol=legacy", "mcpx.clients." + name + ".restart.initial-backoff=10ms",
				"mcpx.clients." + name + ".working-directory=" + this.dir };
	}

	@Test
	void aStdioUpstreamIsABeanThatStartsItsServerOnFirstUse() {
		this.contextRunner.withPropertyValues(stdioPeer("files")).run((context) -> {
			assertThat(context).hasNotFailed();
			McpClient files = context.getBean("files", McpClient.class);
			assertThat(StdioPeer.starts(this.dir.resolve("peer.log"))).isZero();
			assertThat(files.callTool("read_value", Map.of("key", "k")).text()).isEqualTo("value k");
			assertThat(files.status().era()).isEqualTo(ProtocolEra.LEGACY);
			assertThat(files.status().process().pid()).isNotNull();
		});
		// Closing the context stopped the process.
		long pid = StdioPeer.lastPid(this.dir.resolve("peer.log"));
		assertThat(StdioPeer.await(Duration.ofSeconds(10), () -> !StdioPeer.alive(pid))).isTrue();
	}

	@Test
	void theApplicationStartsWhenTheCommandIsMissingAndTheFirstCallNamesItAndTheReason() {
		this.contextRunner.withPropertyValues("mcpx.clients.files.command=mcpx-missing-server",
				"mcpx.clients.files.args[0]=/data")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				McpClient files = context.getBean("files", McpClient.class);
				assertThatExceptionOfType(McpRecoveryFailedException.class).isThrownBy(files::listTools)
					.withMessageContaining("'mcpx-missing-server'")
					.withMessageContaining("No such file or directory");
			});
	}

	@Test
	void environmentValuesAreNeverLoggedEvenWhenTheServerPrintsThemOnStderr(CapturedOutput output) {
		String secret = "s3cr3t-token-value-42";
		this.contextRunner.withPropertyValues(stdioPeer("files"))
			.withPropertyValues("mcpx.clients.files.env.API_TOKEN=" + secret)
			.run((context) -> {
				McpClient files = context.getBean("files", McpClient.class);
				files.callTool("stderr", Map.of("lines", 1, "text", "using token " + secret));
				assertThat(StdioPeer.await(Duration.ofSeconds(10), () -> output.getAll().contains("using token ")))
					.isTrue();
			});
		assertThat(output.getAll()).contains("dev.mcpx.upstream.files").contains("using token s3cr…")
			.doesNotContain(secret);
	}

	@Test
	void urlAndCommandTogetherFailStartupNamingBoth() {
		assertInvalid("mcpx.clients.files.command", "mcpx.clients.files.url",
				"mcpx.clients.files.url=http://127.0.0.1:1/mcp", "mcpx.clients.files.command=npx");
	}

	@Test
	void neitherUrlNorCommandFailsStartupNamingBoth() {
		assertInvalid("mcpx.clients.files.url", "mcpx.clients.files.command", "mcpx.clients.files.protocol=legacy");
	}

	@Test
	void httpOnlySettingsOnAStdioUpstreamFailStartupNamingTheProperty() {
		assertInvalid("mcpx.clients.files.headers", "HTTP upstreams only", "mcpx.clients.files.command=npx",
				"mcpx.clients.files.headers.Authorization=Bearer x");
		assertInvalid("mcpx.clients.files.ssl-bundle", "HTTP upstreams only", "mcpx.clients.files.command=npx",
				"mcpx.clients.files.ssl-bundle=internal");
		assertInvalid("mcpx.clients.files.connect-timeout", "HTTP upstreams only", "mcpx.clients.files.command=npx",
				"mcpx.clients.files.connect-timeout=1s");
	}

	@Test
	void stdioOnlySettingsOnAnHttpUpstreamFailStartupNamingTheProperty() {
		assertInvalid("mcpx.clients.weather.args", "stdio upstreams only",
				"mcpx.clients.weather.url=http://127.0.0.1:1/mcp", "mcpx.clients.weather.args[0]=-y");
		assertInvalid("mcpx.clients.weather.env", "stdio upstreams only",
				"mcpx.clients.weather.url=http://127.0.0.1:1/mcp", "mcpx.clients.weather.env.A=b");
	}

	@Test
	void badRestartSettingsFailStartupNamingTheProperty() {
		assertInvalid("mcpx.clients.files.restart.max-restarts", "must not be negative",
				"mcpx.clients.files.command=npx", "mcpx.clients.files.restart.max-restarts=-1");
		assertInvalid("mcpx.clients.files.restart.window", "positive", "mcpx.clients.files.command=npx",
				"mcpx.clients.files.restart.window=0s");
		assertInvalid("mcpx.defaults.restart.max-backoff", "must not be less than the initial backoff",
				"mcpx.clients.files.command=npx", "mcpx.defaults.restart.initial-backoff=10s",
				"mcpx.defaults.restart.max-backoff=1s");
	}

	@Test
	void defaultsApplyToStdioUpstreamsAsToHttpOnes() {
		this.contextRunner.withPropertyValues(stdioPeer("files"))
			.withPropertyValues("mcpx.defaults.request-timeout=7s", "mcpx.defaults.headers.X-Only-Http=1")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	private void assertInvalid(String expectedProperty, String expectedProblem, String... properties) {
		this.contextRunner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new InvalidMcpxPropertyFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains(expectedProperty).contains(expectedProblem);
			assertThat(analysis.getAction()).contains(expectedProperty);
		});
	}

}
