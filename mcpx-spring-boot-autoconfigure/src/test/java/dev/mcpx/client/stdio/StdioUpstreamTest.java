package dev.mcpx.client.stdio;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.McpClientStatus;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.StdioCommand;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpEraDetectedEvent;
import dev.mcpx.client.event.McpReissueRefusedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpSessionExpiredEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.model.Tool;
import dev.mcpx.client.recovery.ProcessRestartPolicy;
import dev.mcpx.testsupport.JavaSdkStdioServer;
import dev.mcpx.testsupport.StdioPeer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * stdio upstreams against real servers: the TypeScript SDK v1 {@code StdioServerTransport}
 * peer ({@code stdio-server.mjs}), which logs every start and execution to a file, and the
 * official {@code server-everything} in stdio mode (2025-11-25 basic/transports §stdio;
 * 2026-07-28 basic/transports/stdio §Unexpected Termination, §Backward Compatibility).
 */
class StdioUpstreamTest {

	private static final Duration WAIT = Duration.ofSeconds(30);

	@TempDir
	Path dir;

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	private Path log() {
		return this.dir.resolve("peer.log");
	}

	private McpClientBuilder client(StdioCommand command) {
		return McpClient.stdio("files", command)
			.requestTimeout(WAIT)
			.handshakeTimeout(Duration.ofSeconds(20))
			.restartPolicy(ProcessRestartPolicy.custom().initialBackoff(Duration.ofMillis(10)).build())
			.eventListener(this.events::add);
	}

	@Test
	void autoModeProbesWithServerDiscoverThenFallsBackToInitializeAndCallsTools() {
		try (McpClient client = client(StdioPeer.command(log())).build()) {
			assertThat(client.callTool("read_value", Map.of("key", "a")).text()).isEqualTo("value a");
			assertThat(client.listTools()).extracting(Tool::name).contains("read_value", "add_item", "crash");
			McpClientStatus status = client.status();
			assertThat(status.era()).isEqualTo(ProtocolEra.LEGACY);
			assertThat(status.url()).isEqualTo("stdio:" + StdioPeer.node());
			assertThat(status.process()).isNotNull();
			assertThat(status.process().pid()).isEqualTo(StdioPeer.lastPid(log()));
			assertThat(status.process().restarts()).isZero();
		}
		assertThat(StdioPeer.starts(log())).isEqualTo(1);
		assertThat(this.events).filteredOn(McpEraDetectedEvent.class::isInstance).hasSize(1);
	}

	@Test
	void everyLineWrittenToStdinIsOneJsonRpcMessageAndATimedOutRequestIsCancelled() throws Exception {
		Path stdin = this.dir.resolve("stdin.log");
		StdioCommand command = StdioPeer.command(log());
		command = command.withEnv(Map.of("MCPX_STDIO_LOG", log().toString(), "MCPX_STDIO_STDIN", stdin.toString()));
		try (McpClient client = client(command).requestTimeout(Duration.ofSeconds(2)).build()) {
			assertThat(client.callTool("read_value", Map.of("key", "line\nbreak\r\n")).text())
				.isEqualTo("value line\nbreak\r\n");
			assertThatExceptionOfType(McpTimeoutException.class)
				.isThrownBy(() -> client.callTool("slow_read", Map.of("key", "slow", "ms", 8000)));
			assertThat(StdioPeer.await(WAIT, () -> read(stdin).contains("notifications/cancelled"))).isTrue();
		}
		JsonMapper json = JsonMapper.shared();
		List<String> lines = List.of(read(stdin).split("\n"));
		assertThat(lines).hasSizeGreaterThan(4);
		for (String line : lines) {
			JsonNode message = json.readTree(line);
			assertThat(message.path("jsonrpc").asString()).as(line).isEqualTo("2.0");
			assertThat(message.has("method")).as(line).isTrue();
		}
		assertThat(lines.get(0)).contains("\"server/discover\"");
		assertThat(lines).anySatisfy((line) -> assertThat(line).contains("\"initialize\""));
		assertThat(lines).anySatisfy((line) -> assertThat(line).contains("notifications/cancelled")
			.contains("\"requestId\""));
	}

	private static String read(Path file) {
		try {
			return Files.exists(file) ? Files.readString(file) : "";
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	@Test
	void aModernStdioServerIsFoundByTheProbeAndEveryRequestCarriesItsMetadata() {
		try (McpClient client = client(StdioPeer.modernCommand(log())).build()) {
			assertThat(client.callTool("read_value", Map.of("key", "m")).text()).isEqualTo("value m");
			assertThat(client.status().era()).isEqualTo(ProtocolEra.MODERN);
			assertThat(client.status().protocolVersion()).isEqualTo("2026-07-28");
			assertThat(client.status().serverInfo().name()).isEqualTo("mcpx-modern-stdio-peer");
			assertThatExceptionOfType(McpStreamLostException.class)
				.isThrownBy(() -> client.callTool("crash", Map.of("item", "z")))
				.withMessageContaining("exited with code 3");
			// 2026-07-28 basic/transports/stdio §Unexpected Termination: the fresh process serves the next call.
			assertThat(client.callTool("add_item", Map.of("item", "w")).text()).isEqualTo("added w");
			assertThat(client.status().era()).isEqualTo(ProtocolEra.MODERN);
		}
		assertThat(StdioPeer.executions(log(), "crash")).isEqualTo(1);
		assertThat(StdioPeer.executions(log(), "add_item")).isEqualTo(1);
		assertThat(StdioPeer.starts(log())).isEqualTo(2);
	}

	@Test
	void aTimedOutModernRequestIsCancelledWithANotificationSinceThereIsNoStreamToClose() {
		Path stdin = this.dir.resolve("stdin.log");
		StdioCommand command = StdioPeer.modernCommand(log())
			.withEnv(Map.of("MCPX_STDIO_LOG", log().toString(), "MCPX_STDIO_STDIN", stdin.toString()));
		try (McpClient client = client(command).requestTimeout(Duration.ofSeconds(2)).build()) {
			assertThat(client.callTool("read_value", Map.of("key", "m")).text()).isEqualTo("value m");
			assertThatExceptionOfType(McpTimeoutException.class)
				.isThrownBy(() -> client.callTool("slow_read", Map.of("key", "slow", "ms", 8000)));
			assertThat(StdioPeer.await(WAIT, () -> read(stdin).contains("notifications/cancelled"))).isTrue();
			assertThat(client.status().era()).isEqualTo(ProtocolEra.MODERN);
		}
	}

	@Test
	void theProcessStartsOnFirstUseNotWhenTheClientIsBuilt() {
		try (McpClient client = client(StdioPeer.command(log())).protocol(ProtocolMode.LEGACY).build()) {
			assertThat(StdioPeer.starts(log())).isZero();
			client.ping();
			assertThat(StdioPeer.starts(log())).isEqualTo(1);
		}
	}

	@Test
	void aDestructiveToolWhoseProcessExitsMidCallIsNotRunAgainAndTheNextCallGetsANewProcess() {
		try (McpClient client = client(StdioPeer.command(log())).protocol(ProtocolMode.LEGACY).build()) {
			client.listTools();
			assertThatExceptionOfType(McpStreamLostException.class)
				.isThrownBy(() -> client.callTool("crash", Map.of("item", "x")))
				.withMessageContaining("exited with code 3")
				.withMessageContaining("tool 'crash'")
				.withMessageContaining("may have run");
			assertThat(StdioPeer.executions(log(), "crash")).isEqualTo(1);
			assertThat(client.callTool("add_item", Map.of("item", "y")).text()).isEqualTo("added y");
			assertThat(StdioPeer.executions(log(), "add_item")).isEqualTo(1);
			assertThat(client.status().process().restarts()).isEqualTo(1);
			assertThat(client.status().process().lastExitCode()).isEqualTo(3);
		}
		assertThat(StdioPeer.starts(log())).isEqualTo(2);
		assertThat(this.events).filteredOn(McpReissueRefusedEvent.class::isInstance)
			.singleElement()
			.satisfies((e) -> assertThat(((McpReissueRefusedEvent) e).cause()).isEqualTo(ReplayCause.STREAM_LOST));
		assertThat(this.events).filteredOn(McpSessionRecoveredEvent.class::isInstance)
			.singleElement()
			.satisfies((e) -> {
				McpSessionRecoveredEvent recovered = (McpSessionRecoveredEvent) e;
				assertThat(recovered.trigger()).isEqualTo(ReplayCause.PROCESS_EXITED);
				assertThat(recovered.cause()).contains("exited with code 3");
			});
	}

	@Test
	void aReadOnlyToolWhoseProcessExitsMidCallIsSentAgainToTheNewProcess() {
		Path marker = this.dir.resolve("crashed-once");
		try (McpClient client = client(StdioPeer.command(log())).protocol(ProtocolMode.LEGACY).build()) {
			assertThat(client.callTool("crash_read", Map.of("marker", marker.toString())).text())
				.isEqualTo("read after crash");
		}
		assertThat(StdioPeer.executions(log(), "crash_read")).isEqualTo(2);
		assertThat(StdioPeer.starts(log())).isEqualTo(2);
		assertThat(this.events).filteredOn(McpRequestReissuedEvent.class::isInstance)
			.singleElement()
			.satisfies((e) -> assertThat(((McpRequestReissuedEvent) e).reason()).contains("readOnlyHint"));
	}

	@Test
	void aKilledProcessIsRestartedOnceForEverySixteenCallersInFlight() throws Exception {
		try (McpClient client = client(StdioPeer.command(log())).protocol(ProtocolMode.LEGACY).build()) {
			client.listTools();
			long first = StdioPeer.lastPid(log());
			ExecutorService pool = Executors.newFixedThreadPool(16);
			try {
				List<Future<String>> calls = new ArrayList<>();
				for (int i = 0; i < 16; i++) {
					String key = "k" + i;
					calls.add(pool.submit(() -> client.callTool("slow_read", Map.of("key", key, "ms", 3000)).text()));
				}
				assertThat(StdioPeer.await(WAIT, () -> StdioPeer.executions(log(), "slow_read") == 16)).isTrue();
				StdioPeer.kill9(first);
				for (int i = 0; i < 16; i++) {
					assertThat(calls.get(i).get(60, TimeUnit.SECONDS)).isEqualTo("value k" + i);
				}
			}
			finally {
				pool.shutdownNow();
			}
			assertThat(client.status().process().restarts()).isEqualTo(1);
		}
		assertThat(StdioPeer.starts(log())).isEqualTo(2);
		assertThat(StdioPeer.executions(log(), "slow_read")).isEqualTo(32);
		assertThat(this.events).filteredOn(McpSessionExpiredEvent.class::isInstance)
			.singleElement()
			.satisfies((e) -> assertThat(((McpSessionExpiredEvent) e).cause()).contains("killed by SIGKILL"));
		assertThat(this.events).filteredOn(McpRequestReissuedEvent.class::isInstance).hasSize(16);
	}

	@Test
	void aCommandThatDoesNotExistFailsTheFirstCallNamingTheCommandAndTheReason() {
		try (McpClient client = client(StdioCommand.of("mcpx-no-such-command-42")).build()) {
			assertThatExceptionOfType(McpRecoveryFailedException.class).isThrownBy(client::listTools)
				.withMessageContaining("'mcpx-no-such-command-42'")
				.withMessageContaining("No such file or directory");
			assertThat(client.status().lastErrorType()).isEqualTo(McpRecoveryFailedException.class);
		}
	}

	@Test
	void aBannerAndStrayLinesOnStdoutAreSkippedNotTakenForProtocol() {
		try (McpClient client = client(StdioPeer.command(log(), "--banner", "--stray-lines")).build()) {
			assertThat(client.callTool("read_value", Map.of("key", "b")).text()).isEqualTo("value b");
		}
		assertThat(StdioPeer.starts(log())).isEqualTo(1);
	}

	@Test
	void aServerThatNeverAnswersInitializeFailsWithinTheHandshakeTimeoutAndIsStopped() {
		try (McpClient client = client(StdioPeer.command(log(), "--never-answer")).protocol(ProtocolMode.LEGACY)
			// long enough for the server process to start (and log it) on a loaded machine
			.handshakeTimeout(Duration.ofSeconds(10))
			.build()) {
			assertThatExceptionOfType(McpTimeoutException.class).isThrownBy(client::listTools)
				.withMessageContaining("initialize timed out after 10000 ms");
			assertThat(StdioPeer.starts(log())).isEqualTo(1);
			long pid = StdioPeer.lastPid(log());
			assertThat(StdioPeer.await(WAIT, () -> !StdioPeer.alive(pid))).isTrue();
		}
	}

	@Test
	void aServerThatExitsAtOnceIsStartedAtMostTheBudgetAndThenCallsFailFast() {
		ProcessRestartPolicy policy = ProcessRestartPolicy.custom()
			.initialBackoff(Duration.ofMillis(10))
			.maxBackoff(Duration.ofMillis(40))
			.maxRestarts(3)
			.window(Duration.ofMinutes(1))
			.coolDown(Duration.ofMinutes(1))
			.build();
		try (McpClient client = client(StdioPeer.command(log(), "--exit-at-once")).protocol(ProtocolMode.LEGACY)
			.restartPolicy(policy)
			.build()) {
			for (int i = 0; i < 20; i++) {
				assertThatExceptionOfType(McpException.class).isThrownBy(client::listTools);
			}
			long started = System.nanoTime();
			assertThatExceptionOfType(McpRecoveryFailedException.class).isThrownBy(client::listTools)
				.withMessageContaining("is not started again")
				.withMessageContaining("restart.cool-down");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
			assertThat(client.status().process().downUntil()).isNotNull();
		}
		// The first start and three restarts; then nothing until the cool-down ends.
		assertThat(StdioPeer.starts(log())).isEqualTo(4);
	}

	@Test
	void aLineOverTheMessageLimitStopsTheProcessAndTheNextCallGetsANewOne() {
		try (McpClient client = client(StdioPeer.command(log())).protocol(ProtocolMode.LEGACY)
			.maxMessageBytes(1024 * 1024)
			.build()) {
			client.listTools();
			assertThatExceptionOfType(McpStreamLostException.class)
				.isThrownBy(() -> client.callTool("huge", Map.of("mb", 100)))
				.withMessageContaining("over the limit of 1048576 bytes");
			assertThat(client.callTool("read_value", Map.of("key", "c")).text()).isEqualTo("value c");
		}
		// The call and its one re-issue (the tool is read-only) each met a huge line.
		assertThat(StdioPeer.executions(log(), "huge")).isEqualTo(2);
		assertThat(StdioPeer.starts(log())).isEqualTo(3);
	}

	@Test
	void theChildGetsTheConfiguredEnvironmentAndOnlyAMinimalOneWithoutInheritance() {
		String inherited = System.getenv().keySet().stream()
			.filter((name) -> !StdioCommand.MINIMAL_ENVIRONMENT.contains(name) && name.matches("[A-Z_]+"))
			.findFirst()
			.orElseThrow();
		StdioCommand command = StdioPeer.command(log());
		StdioCommand withEnv = command.withEnv(Map.of("MCPX_STDIO_LOG", log().toString(), "MCPX_SECRET", "s3cr3t-value"));
		try (McpClient client = client(withEnv).build()) {
			assertThat(client.callTool("env", Map.of("name", "MCPX_SECRET")).text()).isEqualTo("s3cr3t-value");
			assertThat(client.callTool("env", Map.of("name", inherited)).text()).isNotEqualTo("<unset>");
		}
		try (McpClient client = client(withEnv.withInheritEnv(false)).build()) {
			assertThat(client.callTool("env", Map.of("name", "MCPX_SECRET")).text()).isEqualTo("s3cr3t-value");
			assertThat(client.callTool("env", Map.of("name", inherited)).text()).isEqualTo("<unset>");
			assertThat(client.callTool("env", Map.of("name", "PATH")).text()).isNotEqualTo("<unset>");
		}
		assertThat(withEnv.toString()).doesNotContain("s3cr3t-value");
	}

	@Test
	void closeEndsTheWholeProcessTreeEvenBehindAShell() throws Exception {
		Path script = this.dir.resolve("wrapper.sh");
		// A shell that does not exec its child: the server is a grandchild of the client.
		Files.writeString(script, "#!/bin/sh\n\"$@\"\nexit $?\n");
		script.toFile().setExecutable(true);
		StdioCommand peer = StdioPeer.command(log());
		List<String> args = new ArrayList<>();
		args.add(peer.command());
		args.addAll(peer.args());
		StdioCommand wrapped = new StdioCommand(script.toString(), args, peer.env(), null, true);
		long shell;
		try (McpClient client = client(wrapped).build()) {
			client.ping();
			shell = client.status().process().pid();
			assertThat(StdioPeer.lastPid(log())).isNotEqualTo(shell);
		}
		long server = StdioPeer.lastPid(log());
		assertThat(StdioPeer.alive(shell)).isFalse();
		assertThat(StdioPeer.await(Duration.ofSeconds(10), () -> !StdioPeer.alive(server))).isTrue();
	}

	@Test
	void serverEverythingInStdioModeAnswersToolsPromptsAndResources() {
		try (McpClient client = client(StdioPeer.everything()).build()) {
			assertThat(client.listTools()).extracting(Tool::name).contains("echo");
			assertThat(client.callTool("echo", Map.of("message", "hi")).text()).contains("hi");
			assertThat(client.listPrompts()).isNotEmpty();
			assertThat(client.listResources()).isNotEmpty();
			assertThat(client.status().era()).isEqualTo(ProtocolEra.LEGACY);
			assertThat(client.status().serverInfo().name()).isNotBlank();
		}
	}

	@Test
	void theJavaSdkStdioServerInAChildJvmIsServedAndRestartedAfterACrash() {
		try (McpClient client = client(JavaSdkStdioServer.command(log())).build()) {
			assertThat(client.callTool("echo", Map.of("text", "java")).text()).isEqualTo("java");
			assertThat(client.status().era()).isEqualTo(ProtocolEra.LEGACY);
			assertThat(client.status().serverInfo().name()).isEqualTo("mcpx-java-sdk-stdio-peer");
			assertThatExceptionOfType(McpStreamLostException.class)
				.isThrownBy(() -> client.callTool("crash", Map.of("text", "x")))
				.withMessageContaining("exited with code 3");
			assertThat(client.callTool("add_item", Map.of("text", "y")).text()).isEqualTo("added y");
		}
		assertThat(StdioPeer.starts(log())).isEqualTo(2);
		assertThat(StdioPeer.executions(log(), "crash")).isEqualTo(1);
		assertThat(StdioPeer.executions(log(), "add_item")).isEqualTo(1);
	}

	@Test
	void aToolListChangeAnnouncedOnStdoutReachesTheCatalogue() throws Exception {
		CountDownLatch changed = new CountDownLatch(1);
		try (McpClient client = client(StdioPeer.command(log()))
			.notificationListener((upstream, method, params) -> {
				if (method.equals("notifications/tools/list_changed")) {
					changed.countDown();
				}
			})
			.build()) {
			client.callTool("notify", Map.of());
			assertThat(changed.await(10, TimeUnit.SECONDS)).isTrue();
		}
	}

}
