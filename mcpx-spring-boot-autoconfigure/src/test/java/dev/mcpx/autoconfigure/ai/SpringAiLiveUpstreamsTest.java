package dev.mcpx.autoconfigure.ai;

import java.net.URI;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.definition.ToolDefinition;

import dev.mcpx.client.McpClients;
import dev.mcpx.testsupport.JavaSdkServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring AI's tool loop (ChatClient's {@code ToolCallingManager}) follows the live set of
 * {@link McpClients}: an upstream added while the application runs has its tools offered in
 * the next chat request, and one removed stops being offered (docs/architecture.md,
 * "The live registry").
 */
class SpringAiLiveUpstreamsTest {

	private static JavaSdkServer configured;

	private static JavaSdkServer added;

	private final ScriptedChatModel model = new ScriptedChatModel();

	@BeforeAll
	static void start() {
		configured = JavaSdkServer.start();
		added = JavaSdkServer.start((spec) -> spec.clear().tool("late_tool", JavaSdkServer.readOnly(), (args) -> "late"));
	}

	@AfterAll
	static void stop() {
		configured.close();
		added.close();
	}

	@Test
	void anAddedUpstreamsToolsAreOfferedInTheNextChatRequestAndARemovedOnesAreNot() {
		ChatApp.contextRunner("sdk", configured.url()).run((context) -> {
			assertThat(context).hasNotFailed();
			ChatApp chat = new ChatApp(context, this.model);
			McpClients clients = context.getBean(McpClients.class);
			assertThat(chat.ask("late_tool", "{}")).isEqualTo(ScriptedChatModel.NOT_OFFERED + "late_tool");

			clients.add("late", URI.create(added.url()), (builder) -> {
			});

			assertThat(chat.ask("late_tool", "{}")).isEqualTo(ScriptedChatModel.TOOL_SAID + "late");
			assertThat(this.model.lastOffered()).extracting(ToolDefinition::name).contains("late_tool", "echo");
			assertThat(added.executions("late_tool")).isEqualTo(1);

			clients.remove("late").get(10, TimeUnit.SECONDS);

			assertThat(chat.ask("late_tool", "{}")).isEqualTo(ScriptedChatModel.NOT_OFFERED + "late_tool");
			assertThat(this.model.lastOffered()).extracting(ToolDefinition::name).doesNotContain("late_tool")
				.contains("echo");
			assertThat(added.executions("late_tool")).isEqualTo(1);
		});
	}

}
