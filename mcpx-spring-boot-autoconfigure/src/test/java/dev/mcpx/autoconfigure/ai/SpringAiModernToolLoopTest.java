package dev.mcpx.autoconfigure.ai;

import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.definition.ToolDefinition;

import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spring AI tool loop against the modern (2026-07-28) TypeScript v2 server
 * ({@code modern-server.mjs}), next to a second upstream that is down.
 */
class SpringAiModernToolLoopTest {

	private NodePeer peer;

	private final ScriptedChatModel model = new ScriptedChatModel();

	@BeforeEach
	void startPeer() {
		this.peer = NodePeer.start(NodePeer.MODERN);
	}

	@AfterEach
	void stopPeer() {
		if (this.peer != null) {
			this.peer.close();
		}
	}

	private void run(Consumer<ChatApp> test) {
		ChatApp.contextRunner("modern", this.peer.url()).run((context) -> {
			assertThat(context).hasNotFailed();
			test.accept(new ChatApp(context, this.model));
		});
	}

	@Test
	void aToolCallWorksWhileAnotherUpstreamIsDown() {
		run((chat) -> {
			assertThat(chat.ask("echo", "{\"text\":\"hello\"}")).isEqualTo(ScriptedChatModel.TOOL_SAID + "hello");
			assertThat(this.model.lastOffered()).extracting(ToolDefinition::name).contains("echo", "delete_item");
			assertThat(this.peer.counts().path("executions").path("echo").asInt()).isEqualTo(1);
		});
	}

	@Test
	void afterTheServerRestartsTheNextChatsToolCallWorks() {
		run((chat) -> {
			assertThat(chat.ask("echo", "{\"text\":\"before\"}")).endsWith("before");
			this.peer = this.peer.restart();
			assertThat(chat.ask("echo", "{\"text\":\"after\"}")).isEqualTo(ScriptedChatModel.TOOL_SAID + "after");
			// the restarted process counts from zero: the call ran once on it
			assertThat(this.peer.counts().path("executions").path("echo").asInt()).isEqualTo(1);
		});
	}

	@Test
	void aDestructiveToolWhoseResponseIsLostIsReportedToTheModelAsMayHaveRunAndRanOnce() {
		run((chat) -> {
			this.peer.cut("delete_item", 1);
			String answer = chat.ask("delete_item", "{\"id\":\"42\"}");
			assertThat(answer).startsWith(ScriptedChatModel.TOOL_SAID).contains("MAY HAVE RUN").contains("NOT RETRIED");
			assertThat(this.peer.counts().path("executions").path("delete_item").asInt()).isEqualTo(1);
		});
	}

}
