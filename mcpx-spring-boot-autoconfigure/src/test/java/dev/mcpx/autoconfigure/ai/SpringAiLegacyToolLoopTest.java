package dev.mcpx.autoconfigure.ai;

import java.time.Duration;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * A real Spring AI tool loop (Spring AI's {@code ChatClient} and tool calling around a
 * scripted model) over mcpx's tool callbacks, against the official TypeScript v1 SDK server
 * ({@code legacy-server.mjs}), next to a second upstream that is down.
 */
@ExtendWith(OutputCaptureExtension.class)
class SpringAiLegacyToolLoopTest {

	private static NodePeer peer;

	private final ScriptedChatModel model = new ScriptedChatModel();

	@BeforeAll
	static void startPeer() {
		peer = NodePeer.start(NodePeer.LEGACY);
	}

	@AfterAll
	static void stopPeer() {
		if (peer != null) {
			peer.close();
		}
	}

	@BeforeEach
	void resetPeer() {
		peer.reset();
	}

	private ApplicationContextRunner contextRunner() {
		return ChatApp.contextRunner("legacy", peer.url());
	}

	private void run(Consumer<ChatApp> test) {
		contextRunner().run((context) -> {
			assertThat(context).hasNotFailed();
			test.accept(new ChatApp(context, this.model));
		});
	}

	@Test
	void aToolCallWorksWhileAnotherUpstreamIsDown() {
		run((chat) -> {
			String answer = chat.ask("echo", "{\"text\":\"hello\"}");
			assertThat(answer).isEqualTo(ScriptedChatModel.TOOL_SAID + "hello");
			assertThat(this.model.lastOffered()).extracting(ToolDefinition::name)
				.contains("echo", "set_value", "delete_item", "slow");
			assertThat(peer.counts().path("executions").path("echo").asInt()).isEqualTo(1);
		});
	}

	@Test
	void afterTheServerForgetsEverySessionTheNextChatsToolCallWorksThroughOneReinitialize() {
		run((chat) -> {
			assertThat(chat.ask("echo", "{\"text\":\"before\"}")).endsWith("before");
			int initializes = peer.counts().path("initialize").asInt();
			peer.forgetSessions();
			assertThat(chat.ask("echo", "{\"text\":\"after\"}")).isEqualTo(ScriptedChatModel.TOOL_SAID + "after");
			assertThat(peer.counts().path("initialize").asInt()).isEqualTo(initializes + 1);
			assertThat(peer.counts().path("executions").path("echo").asInt()).isEqualTo(2);
		});
	}

	@Test
	void aDestructiveToolWhoseResponseIsLostIsReportedToTheModelAsMayHaveRunAndRanOnce() {
		run((chat) -> {
			peer.cut("delete_item", 1);
			String answer = chat.ask("delete_item", "{\"id\":\"42\"}");
			assertThat(answer).startsWith(ScriptedChatModel.TOOL_SAID)
				.contains("MAY HAVE RUN")
				.contains("NOT RETRIED")
				.contains("delete_item");
			assertThat(peer.counts().path("executions").path("delete_item").asInt()).isEqualTo(1);
		});
	}

	@Test
	void malformedArgumentsAreReportedToTheModelAndNothingIsSent() {
		run((chat) -> {
			String answer = chat.ask("delete_item", "{\"id\": ");
			assertThat(answer).contains("delete_item").contains("not valid JSON").contains("Nothing was sent");
			assertThat(peer.counts().path("requests").path("tools/call").asInt()).isZero();
		});
	}

	@Test
	void aToolAddedAtRuntimeIsOfferedInTheNextChatRequest() {
		run((chat) -> {
			assertThat(chat.ask("echo", "{\"text\":\"warm\"}")).endsWith("warm");
			assertThat(chat.ask("added_later", "{}")).isEqualTo(ScriptedChatModel.NOT_OFFERED + "added_later");
			peer.addTool("added_later");
			// the announcement travels on the listen stream; the catalogue is re-read after it
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(chat.ask("added_later", "{}"))
					.isEqualTo(ScriptedChatModel.TOOL_SAID + "added_later ran"));
			assertThat(peer.counts().path("executions").path("added_later").asInt()).isEqualTo(1);
		});
	}

	@Test
	void anUpstreamThatStaysDownIsLoggedOncePerOutage(CapturedOutput output) {
		run((chat) -> {
			chat.ask("echo", "{\"text\":\"one\"}");
			chat.ask("echo", "{\"text\":\"two\"}");
			assertThat(output.getOut().split("MCP upstream 'down' is unavailable", -1)).hasSize(2);
			assertThat(peer.counts().path("executions").path("echo").asInt()).isEqualTo(2);
		});
	}

	@Test
	void whenUnavailableUpstreamsMustFailTheChatRequestFailsNamingIt() {
		contextRunner().withPropertyValues("mcpx.spring-ai.fail-on-unavailable-upstream=true").run((context) -> {
			assertThat(context).hasNotFailed();
			ChatApp chat = new ChatApp(context, this.model);
			assertThatException().isThrownBy(() -> chat.ask("echo", "{\"text\":\"x\"}"))
				.withMessageContaining("'down'")
				.withMessageContaining("mcpx.spring-ai.fail-on-unavailable-upstream");
			assertThat(peer.counts().path("executions").path("echo").asInt()).isZero();
		});
	}

}
