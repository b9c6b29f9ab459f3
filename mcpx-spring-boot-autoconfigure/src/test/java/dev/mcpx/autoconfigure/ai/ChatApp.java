package dev.mcpx.autoconfigure.ai;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;

/**
 * A chat application for the tool-loop tests: mcpx with one live upstream and one that is
 * down, and a {@code ChatClient} given mcpx's provider once, as an application would.
 */
final class ChatApp {

	private final ChatClient client;

	private final ScriptedChatModel model;

	ChatApp(AssertableApplicationContext context, ScriptedChatModel model) {
		this.model = model;
		this.client = ChatClient.builder(model).defaultToolCallbacks(context.getBean(ToolCallbackProvider.class)).build();
	}

	/**
	 * The application's context: the live upstream under {@code name}, and {@code down},
	 * where nothing listens (port 1), from the start.
	 */
	static ApplicationContextRunner contextRunner(String name, String url) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
					McpxSpringAiAutoConfiguration.class))
			// The JDK client, as an application without another HTTP library has (Apache
			// HttpClient 5 is on this module's test classpath through WireMock).
			.withBean(ClientHttpRequestFactoryBuilder.class, ClientHttpRequestFactoryBuilder::jdk)
			.withPropertyValues("mcpx.clients." + name + ".url=" + url, "mcpx.clients.down.url=http://127.0.0.1:1/mcp",
					"mcpx.clients.down.connect-timeout=1s");
	}

	/**
	 * One chat request in which the model calls the given tool, if it is offered.
	 * @return the model's answer
	 */
	String ask(String tool, String arguments) {
		this.model.willCall(tool, arguments);
		return this.client.prompt().user("please use " + tool).call().content();
	}

}
