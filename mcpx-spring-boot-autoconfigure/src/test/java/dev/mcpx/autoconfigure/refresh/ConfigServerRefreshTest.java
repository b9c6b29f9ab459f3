package dev.mcpx.autoconfigure.refresh;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.config.server.EnableConfigServer;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.PayloadApplicationEvent;
import org.springframework.core.env.Environment;

import dev.mcpx.autoconfigure.McpUpstreamRejectedEvent;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.error.McpClientClosedException;
import dev.mcpx.client.event.McpUpstreamChangedEvent;
import dev.mcpx.testsupport.JavaSdkServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A configuration refresh against a real Spring Cloud Config Server (its native backend, a
 * directory of this test) and the application's {@code /actuator/refresh}, while calls run:
 * an upstream new in the configuration is added, one gone is removed, one whose settings
 * changed is replaced, one unchanged keeps its session, and one whose new settings are
 * invalid is refused alone (docs/architecture.md, "Configuration refresh").
 */
class ConfigServerRefreshTest {

	@TempDir
	Path configDir;

	private final JavaSdkServer stable = JavaSdkServer.start();

	private final JavaSdkServer changing = JavaSdkServer.start();

	private final JavaSdkServer leaving = JavaSdkServer.start();

	private final JavaSdkServer arriving = JavaSdkServer.start();

	private final List<McpUpstreamRejectedEvent> rejected = new CopyOnWriteArrayList<>();

	private final List<McpUpstreamChangedEvent> changed = new CopyOnWriteArrayList<>();

	private final HttpClient http = HttpClient.newHttpClient();

	private ConfigurableApplicationContext configServer;

	private ConfigurableApplicationContext app;

	@BeforeEach
	void start() throws IOException {
		write("""
				mcpx:
				  clients:
				    stable:
				      url: %s
				    changing:
				      url: %s
				      request-timeout: 5s
				    leaving:
				      url: %s
				""".formatted(this.stable.url(), this.changing.url(), this.leaving.url()));
		this.configServer = new SpringApplicationBuilder(ConfigServer.class)
			.properties("server.port=0", "server.address=127.0.0.1", "spring.application.name=config-server",
					"spring.profiles.active=native",
					"spring.cloud.config.server.native.search-locations=file:" + this.configDir.toAbsolutePath() + "/",
					"spring.cloud.config.enabled=false", "spring.cloud.config.import-check.enabled=false",
					"eureka.client.enabled=false", "mcpx.spring-ai.enabled=false")
			.run();
		String configServerUrl = "http://127.0.0.1:" + port(this.configServer);
		this.app = new SpringApplicationBuilder(App.class)
			.properties("server.port=0", "server.address=127.0.0.1", "spring.application.name=refreshed-app",
					"management.endpoints.web.exposure.include=refresh", "eureka.client.enabled=false",
					"mcpx.spring-ai.enabled=false")
			.listeners((ApplicationListener<?>) (event) -> {
				if (event instanceof PayloadApplicationEvent<?> payload
						&& payload.getPayload() instanceof McpUpstreamRejectedEvent rejection) {
					this.rejected.add(rejection);
				}
				if (event instanceof PayloadApplicationEvent<?> payload
						&& payload.getPayload() instanceof McpUpstreamChangedEvent change) {
					this.changed.add(change);
				}
			})
			// on the command line, where an application would set it
			.run("--spring.config.import=configserver:" + configServerUrl, "--spring.cloud.config.enabled=true");
	}

	@AfterEach
	void stop() {
		if (this.app != null) {
			this.app.close();
		}
		if (this.configServer != null) {
			this.configServer.close();
		}
		for (JavaSdkServer server : List.of(this.stable, this.changing, this.leaving, this.arriving)) {
			server.close();
		}
	}

	@Test
	void aRefreshAddsReplacesAndRemovesUpstreamsWhileTheUnchangedOneKeepsServingItsSession() throws Exception {
		McpClients clients = this.app.getBean(McpClients.class);
		McpClient stableBean = this.app.getBean("stable", McpClient.class);
		McpClient changingBefore = clients.get("changing");
		McpClient leavingBefore = clients.get("leaving");
		changingBefore.callTool("echo", Map.of("text", "before"));
		leavingBefore.callTool("echo", Map.of("text", "before"));
		stableBean.callTool("echo", Map.of("text", "before"));
		AtomicBoolean calling = new AtomicBoolean(true);
		AtomicInteger answered = new AtomicInteger(1);
		List<Throwable> failures = new CopyOnWriteArrayList<>();
		Thread caller = new Thread(() -> {
			while (calling.get()) {
				try {
					stableBean.callTool("echo", Map.of("text", "during"));
					answered.incrementAndGet();
				}
				catch (RuntimeException ex) {
					failures.add(ex);
				}
			}
		}, "stable-caller");
		caller.start();
		try {
			awaitExecutions(this.stable, 10);
			write("""
					mcpx:
					  clients:
					    stable:
					      url: %s
					    changing:
					      url: %s
					      request-timeout: 7s
					    arriving:
					      url: %s
					    broken:
					      url: ftp://example.org/mcp
					""".formatted(this.stable.url(), this.changing.url(), this.arriving.url()));

			HttpResponse<String> refreshed = refresh();

			assertThat(refreshed.statusCode()).isEqualTo(200);
			assertThat(refreshed.body()).contains("mcpx.clients.arriving.url");
			awaitExecutions(this.stable, this.stable.executions("echo") + 10);
		}
		finally {
			calling.set(false);
			caller.join(30_000);
		}
		assertThat(failures).isEmpty();
		// unchanged: the same client and session, every call it took answered and run once
		assertThat(clients.get("stable")).isSameAs(stableBean);
		assertThat(this.stable.initializeCount()).isEqualTo(1);
		assertThat(this.stable.executions("echo")).isEqualTo(answered.get());
		assertThat(this.stable.deleteCount()).isZero();
		// changed: replaced, the old client drained and its session ended
		assertThat(clients.get("changing")).isNotSameAs(changingBefore);
		assertThatThrownBy(() -> changingBefore.callTool("echo", Map.of("text", "old")))
			.isInstanceOf(McpClientClosedException.class);
		clients.get("changing").callTool("echo", Map.of("text", "after"));
		assertThat(this.changing.initializeCount()).isEqualTo(2);
		assertThat(this.changing.deleteCount()).isEqualTo(1);
		assertThat(this.changing.executions("echo")).isEqualTo(2);
		// gone: removed and closed
		assertThat(clients.find("leaving")).isEmpty();
		assertThat(this.leaving.deleteCount()).isEqualTo(1);
		// new: added, reached through McpClients
		clients.get("arriving").callTool("echo", Map.of("text", "hello"));
		assertThat(this.arriving.executions("echo")).isEqualTo(1);
		// invalid: refused alone, naming the property
		assertThat(clients.find("broken")).isEmpty();
		assertThat(this.rejected).singleElement().satisfies((event) -> {
			assertThat(event.upstream()).isEqualTo("broken");
			assertThat(event.property()).isEqualTo("mcpx.clients.broken.url");
		});
		assertThat(clients.names()).containsExactlyInAnyOrder("stable", "changing", "arriving");
		// each change an application event, saying it came from the refresh
		assertThat(this.changed).extracting((e) -> e.upstream() + ":" + e.change() + ":" + e.cause())
			.containsExactly("changing:REPLACED:REFRESH", "arriving:ADDED:REFRESH", "leaving:REMOVED:REFRESH");
	}

	@Test
	void anInvalidNewSettingOfALiveUpstreamLeavesItAsItWasAndTheOthersAreRefreshed() throws Exception {
		McpClients clients = this.app.getBean(McpClients.class);
		McpClient changingBefore = clients.get("changing");
		changingBefore.callTool("echo", Map.of("text", "before"));
		write("""
				mcpx:
				  clients:
				    stable:
				      url: %s
				      request-timeout: 9s
				    changing:
				      url: %s
				      request-timeout: -1s
				    leaving:
				      url: %s
				""".formatted(this.stable.url(), this.changing.url(), this.leaving.url()));

		assertThat(refresh().statusCode()).isEqualTo(200);

		assertThat(this.rejected).singleElement().satisfies((event) -> {
			assertThat(event.upstream()).isEqualTo("changing");
			assertThat(event.property()).isEqualTo("mcpx.clients.changing.request-timeout");
		});
		assertThat(clients.get("changing")).isSameAs(changingBefore);
		changingBefore.callTool("echo", Map.of("text", "after"));
		assertThat(this.changing.initializeCount()).isEqualTo(1);
		assertThat(this.changing.executions("echo")).isEqualTo(2);
		assertThat(clients.names()).containsExactly("stable", "changing", "leaving");
		// stable's settings changed too: replaced; changing was refused, and changed nothing
		assertThat(this.changed).extracting((e) -> e.upstream() + ":" + e.change() + ":" + e.cause())
			.containsExactly("stable:REPLACED:REFRESH");
	}

	private HttpResponse<String> refresh() throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(this.app) + "/actuator/refresh"))
			.timeout(Duration.ofSeconds(60))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private void write(String yaml) throws IOException {
		Files.writeString(this.configDir.resolve("refreshed-app.yml"), yaml);
	}

	private static int port(ConfigurableApplicationContext context) {
		Environment environment = context.getEnvironment();
		return Integer.parseInt(environment.getRequiredProperty("local.server.port"));
	}

	private static void awaitExecutions(JavaSdkServer server, int count) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (server.executions("echo") < count && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@EnableConfigServer
	static class ConfigServer {

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class App {

	}

}
