package dev.mcpx.autoconfigure.ai;

import java.util.Arrays;
import java.util.List;

import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.client.McpClients;
import dev.mcpx.testsupport.JavaSdkServer;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which tools the model sees and under which names: {@code expose}, {@code include} and
 * {@code exclude}, prefixes, name sanitising and collisions, against two real upstreams (the
 * official Java SDK server); and when the bridge is active at all.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpxSpringAiAutoConfigurationTest {

	/** 100 characters: valid for MCP (up to 128), too long for the model APIs (64). */
	private static final String LONG_NAME = "a_tool_whose_name_is_far_too_long_for_the_model_apis_"
			+ "that_accept_at_most_sixty_four_characters_in_a_n";

	private static JavaSdkServer alpha;

	private static JavaSdkServer beta;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
				McpxSpringAiAutoConfiguration.class))
		.withBean(ClientHttpRequestFactoryBuilder.class, ClientHttpRequestFactoryBuilder::jdk);

	@BeforeAll
	static void startServers() {
		ToolAnnotations none = ToolAnnotations.builder().build();
		alpha = JavaSdkServer.start((spec) -> spec.tool("unannotated", none, (args) -> "ran")
			.tool("get.forecast", JavaSdkServer.readOnly(), (args) -> "sunny")
			.tool(LONG_NAME, JavaSdkServer.readOnly(), (args) -> "long"));
		beta = JavaSdkServer.start((spec) -> spec.clear()
			.tool("echo", JavaSdkServer.readOnly(), (args) -> "beta echo")
			.tool("beta_only", JavaSdkServer.readOnly(), (args) -> "beta"));
	}

	@AfterAll
	static void stopServers() {
		if (alpha != null) {
			alpha.close();
		}
		if (beta != null) {
			beta.close();
		}
	}

	private ApplicationContextRunner alphaOnly(String... properties) {
		return this.contextRunner.withPropertyValues("mcpx.clients.alpha.url=" + alpha.url())
			.withPropertyValues(properties);
	}

	private static List<String> names(ToolCallbackProvider provider) {
		return Arrays.stream(provider.getToolCallbacks()).map((c) -> c.getToolDefinition().name()).toList();
	}

	@Test
	void everyToolIsOfferedUnderItsOwnNameWithItsSchemaVerbatim() {
		alphaOnly().run((context) -> {
			ToolCallbackProvider provider = context.getBean(ToolCallbackProvider.class);
			assertThat(names(provider)).contains("echo", "set_value", "delete_item", "unannotated");
			ToolCallback echo = callback(provider, "echo");
			var listed = context.getBean(McpClients.class).get("alpha").listTools().stream()
				.filter((tool) -> tool.name().equals("echo")).findFirst().orElseThrow();
			assertThat(JsonMapper.shared().readTree(echo.getToolDefinition().inputSchema()))
				.isEqualTo(listed.inputSchema());
			assertThat(echo.getToolDefinition().description()).isEqualTo("Echoes its text.");
		});
	}

	@Test
	void namesAreMadeValidForTheModelApisAndLongOnesShortenedWithAStableHash() {
		alphaOnly().run((context) -> {
			List<String> names = names(context.getBean(ToolCallbackProvider.class));
			assertThat(names).contains("get_forecast").doesNotContain("get.forecast", LONG_NAME);
			String shortened = names.stream().filter((n) -> n.startsWith("a_tool_whose_name")).findFirst().orElseThrow();
			assertThat(shortened).hasSize(64).matches("^[a-zA-Z0-9_-]{1,64}$").isEqualTo(ToolNames.sanitize(LONG_NAME));
			assertThat(callback(context.getBean(ToolCallbackProvider.class), "get_forecast").call("{}"))
				.isEqualTo("sunny");
			assertThat(alpha.executions("get.forecast")).isEqualTo(1);
		});
	}

	@Test
	void aPrefixIsPrependedToEveryToolOfItsUpstream() {
		alphaOnly("mcpx.clients.alpha.spring-ai.tool-prefix=weather_").run((context) -> assertThat(
				names(context.getBean(ToolCallbackProvider.class)))
			.allMatch((name) -> name.startsWith("weather_"))
			.contains("weather_echo", "weather_get_forecast"));
	}

	@Test
	void readOnlyOffersOnlyToolsDeclaredReadOnly() {
		alphaOnly("mcpx.clients.alpha.spring-ai.expose=read-only").run((context) -> assertThat(
				names(context.getBean(ToolCallbackProvider.class)))
			.contains("echo", "get_forecast")
			.doesNotContain("set_value", "delete_item", "unannotated"));
	}

	@Test
	void nonDestructiveLeavesOutDestructiveAndUnannotatedTools() {
		alphaOnly("mcpx.clients.alpha.spring-ai.expose=non-destructive").run((context) -> assertThat(
				names(context.getBean(ToolCallbackProvider.class)))
			.contains("echo", "set_value", "get_forecast")
			.doesNotContain("delete_item", "unannotated"));
	}

	@Test
	void whenAnnotationsAreNotTrustedNoToolIsShownToBeReadOnly() {
		alphaOnly("mcpx.defaults.spring-ai.expose=read-only", "mcpx.clients.alpha.recovery.trust-annotations=false")
			.run((context) -> assertThat(names(context.getBean(ToolCallbackProvider.class))).isEmpty());
	}

	@Test
	void includeAndExcludeTakeNamesAndGlobs() {
		alphaOnly("mcpx.clients.alpha.spring-ai.include=e*,set_?alue,delete_item",
				"mcpx.clients.alpha.spring-ai.exclude=delete_*")
			.run((context) -> assertThat(names(context.getBean(ToolCallbackProvider.class)))
				.containsExactlyInAnyOrder("echo", "set_value"));
	}

	@Test
	void aToolFilterBeanLeavesOutWhatItRefuses() {
		alphaOnly().withBean(McpToolFilter.class, () -> (upstream, tool) -> !tool.name().startsWith("set"))
			.run((context) -> assertThat(names(context.getBean(ToolCallbackProvider.class))).contains("echo")
				.doesNotContain("set_value"));
	}

	@Test
	void whenTwoUpstreamsOfferTheSameNameBothStayCallableUnderTheirUpstreamsNameWithOneWarning(
			CapturedOutput output) {
		alphaOnly("mcpx.clients.beta.url=" + beta.url()).run((context) -> {
			ToolCallbackProvider provider = context.getBean(ToolCallbackProvider.class);
			assertThat(names(provider)).contains("alpha_echo", "beta_echo", "beta_only", "set_value")
				.doesNotContain("echo")
				.doesNotHaveDuplicates();
			names(provider);
			assertThat(callback(provider, "beta_echo").call("{\"text\":\"x\"}")).isEqualTo("beta echo");
			assertThat(callback(provider, "alpha_echo").call("{\"text\":\"x\"}")).isEqualTo("x");
			assertThat(beta.executions("echo")).isEqualTo(1);
			assertThat(output.getOut().split("each offer a tool named 'echo'", -1)).hasSize(2);
			assertThat(output).contains("mcpx.clients.<name>.spring-ai.tool-prefix");
		});
	}

	@Test
	void aPrefixResolvesACollision() {
		alphaOnly("mcpx.clients.beta.url=" + beta.url(), "mcpx.clients.beta.spring-ai.tool-prefix=b_")
			.run((context) -> assertThat(names(context.getBean(ToolCallbackProvider.class))).contains("echo", "b_echo")
				.doesNotContain("alpha_echo"));
	}

	@Test
	void withoutSpringAiOnTheClasspathNothingOfTheBridgeIsLoaded() {
		alphaOnly().withClassLoader(new FilteredClassLoader(ToolCallbackProvider.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(McpClients.class)
				.doesNotHaveBean(McpxToolCallbackProvider.class)
				.doesNotHaveBean(McpxSpringAiProperties.class));
	}

	@Test
	void theBridgeCanBeSwitchedOff() {
		alphaOnly("mcpx.spring-ai.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ToolCallbackProvider.class));
	}

	@Test
	void aUserProviderWins() {
		McpxToolCallbackProvider own = new McpxToolCallbackProvider(new McpClients(List.of()),
				(name) -> { throw new IllegalStateException(); }, (name) -> java.time.Duration.ofSeconds(1),
				(upstream, tool) -> true, false, JsonMapper.shared());
		alphaOnly().withBean(McpxToolCallbackProvider.class, () -> own)
			.run((context) -> assertThat(context.getBean(ToolCallbackProvider.class)).isSameAs(own));
	}

	@Test
	void whenSpringAisOwnMcpToolCallbacksArePresentTooAWarningSaysWhichPropertyToSet(CapturedOutput output) {
		alphaOnly().withBean("mcpToolCallbacks", SyncMcpToolCallbackProvider.class,
				() -> new SyncMcpToolCallbackProvider(List.of()))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains("Spring AI's MCP client starter also offers MCP tools")
					.contains("[mcpToolCallbacks]")
					.contains("spring.ai.mcp.client.enabled=false")
					.contains("mcpx.spring-ai.enabled=false");
			});
	}

	@Test
	void withoutSpringAisOwnMcpToolCallbacksThereIsNoWarning(CapturedOutput output) {
		alphaOnly().run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).doesNotContain("Spring AI's MCP client starter");
		});
	}

	private static ToolCallback callback(ToolCallbackProvider provider, String name) {
		return Arrays.stream(provider.getToolCallbacks())
			.filter((c) -> c.getToolDefinition().name().equals(name))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no tool " + name + " in " + names(provider)));
	}


}
