package dev.mcpx.autoconfigure.ai;

import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.definition.ToolDefinition;

import dev.mcpx.testsupport.JavaSdkServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spring AI tool loop against the official MCP Java SDK server, next to a second
 * upstream that is down.
 */
class SpringAiJavaSdkToolLoopTest {

	private JavaSdkServer server;

	private final ScriptedChatModel model = new ScriptedChatModel();

	@BeforeEach
	void startServer() {
		this.server = JavaSdkServer.start((spec) -> spec.tool("slow_delete", JavaSdkServer.destructive(), (args) -> {
			sleep(3000);
			return "deleted slowly";
		}));
	}

	@AfterEach
	void stopServer() {
		if (this.server != null) {
			this.server.close();
		}
	}

	private void run(Consumer<ChatApp> test, String... properties) {
		ChatApp.contextRunner("sdk", this.server.url()).withPropertyValues(properties).run((context) -> {
			assertThat(context).hasNotFailed();
			test.accept(new ChatApp(context, this.model));
		});
	}

	@Test
	void aToolCallWorksWhileAnotherUpstreamIsDown() {
		run((chat) -> {
			assertThat(chat.ask("echo", "{\"text\":\"hello\"}")).isEqualTo(ScriptedChatModel.TOOL_SAID + "hello");
			assertThat(this.model.lastOffered()).extracting(ToolDefinition::name).contains("echo", "slow_delete");
			assertThat(this.server.executions("echo")).isEqualTo(1);
		});
	}

	@Test
	void afterTheServerForgetsEverySessionTheNextChatsToolCallWorksThroughOneReinitialize() {
		run((chat) -> {
			assertThat(chat.ask("echo", "{\"text\":\"before\"}")).endsWith("before");
			int initializes = this.server.initializeCount();
			this.server.restart();
			assertThat(chat.ask("echo", "{\"text\":\"after\"}")).isEqualTo(ScriptedChatModel.TOOL_SAID + "after");
			assertThat(this.server.initializeCount()).isEqualTo(initializes + 1);
			assertThat(this.server.executions("echo")).isEqualTo(2);
		});
	}

	@Test
	void aDestructiveToolWhoseResponseDoesNotArriveIsReportedToTheModelAsMayHaveRunAndRanOnce() {
		run((chat) -> {
			String answer = chat.ask("slow_delete", "{}");
			assertThat(answer).startsWith(ScriptedChatModel.TOOL_SAID).contains("MAY HAVE RUN").contains("NOT RETRIED");
			assertThat(this.server.executions("slow_delete")).isEqualTo(1);
		}, "mcpx.clients.sdk.request-timeout=1s");
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
