package dev.mcpx.autoconfigure.ai;

import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.ai.tool.definition.ToolDefinition;

import dev.mcpx.testsupport.ResponseLosingProxy;
import dev.mcpx.testsupport.SpringAiServerPeer;
import dev.mcpx.testsupport.SpringAiServerPeer.Mode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring AI on both sides: a chat application's tool loop (Spring AI's {@code ChatClient},
 * whose tool calling runs the model's calls through {@code DefaultToolCallingManager}, around
 * a scripted model, the only test double) over mcpx's tool callbacks, against Spring AI 2.0.1's
 * own MCP server ({@link SpringAiServerPeer}) in both of its modes, with default settings
 * ({@code protocol: auto}). Counted on the server.
 */
class SpringAiServerToolLoopTest {

	private final ScriptedChatModel model = new ScriptedChatModel();

	private ResponseLosingProxy proxy;

	@AfterEach
	void stopProxy() {
		if (this.proxy != null) {
			this.proxy.close();
		}
	}

	private SpringAiServerPeer server(Mode mode) {
		SpringAiServerPeer server = SpringAiServerPeer.shared(mode);
		server.reset();
		this.proxy = ResponseLosingProxy.to(server.port());
		return server;
	}

	private void run(Consumer<ChatApp> test) {
		ChatApp.contextRunner("springai", this.proxy.url("/mcp")).run((context) -> {
			assertThat(context).hasNotFailed();
			test.accept(new ChatApp(context, this.model));
		});
	}

	@ParameterizedTest
	@EnumSource(Mode.class)
	void itsAnnotatedToolsAreOfferedToTheModelAndAnswerItsCall(Mode mode) {
		SpringAiServerPeer server = server(mode);
		run((chat) -> {
			assertThat(chat.ask("echo", "{\"text\":\"hello\"}")).isEqualTo(ScriptedChatModel.TOOL_SAID + "hello");
			assertThat(this.model.lastOffered()).extracting(ToolDefinition::name)
				.containsExactlyInAnyOrderElementsOf(server.tools());
			assertThat(server.executions("echo")).isEqualTo(1);
			assertThat(server.requests("initialize")).isEqualTo(1);
		});
	}

	@ParameterizedTest
	@EnumSource(Mode.class)
	void aReadOnlyToolWhoseResponseIsLostIsAnsweredFromItsSecondRun(Mode mode) {
		SpringAiServerPeer server = server(mode);
		run((chat) -> {
			this.proxy.loseResponseOf("echo", 1);
			assertThat(chat.ask("echo", "{\"text\":\"twice\"}")).isEqualTo(ScriptedChatModel.TOOL_SAID + "twice");
			assertThat(this.proxy.lost()).isEqualTo(1);
			assertThat(server.executions("echo")).isEqualTo(2);
		});
	}

	@ParameterizedTest
	@EnumSource(Mode.class)
	void aDestructiveToolWhoseResponseIsLostIsReportedToTheModelAsMayHaveRunAndRanOnce(Mode mode) {
		SpringAiServerPeer server = server(mode);
		run((chat) -> {
			this.proxy.loseResponseOf("delete_item", 1);
			String answer = chat.ask("delete_item", "{\"id\":\"42\"}");
			assertThat(answer).startsWith(ScriptedChatModel.TOOL_SAID)
				.contains("MAY HAVE RUN")
				.contains("NOT RETRIED")
				.contains("delete_item");
			assertThat(this.proxy.lost()).isEqualTo(1);
			assertThat(server.executions("delete_item")).isEqualTo(1);
		});
	}

}
