package dev.mcpx.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.event.McpEvent;

/**
 * The clients of a test, as a JUnit 5 extension: each is built from one base builder that
 * the test class describes once, with the test's own settings on top; every event of every
 * client is recorded; every client built is closed after the test (closing is idempotent,
 * so a test may close them itself). Register it on an instance field:
 * <pre>{@code
 * @RegisterExtension
 * final McpClients clients = McpClients.of(() -> McpClient.builder("wire", wire.mcpUri())
 *     .protocol(ProtocolMode.LEGACY)
 *     .requestTimeout(Duration.ofSeconds(5)));
 * }</pre>
 */
public final class McpClients implements AfterEachCallback {

	private final Supplier<McpClientBuilder> base;

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	private final List<McpClient> built = new CopyOnWriteArrayList<>();

	private McpClients(Supplier<McpClientBuilder> base) {
		this.base = base;
	}

	/**
	 * The clients of a test class.
	 * @param base a new builder with the settings every client of the class shares, asked
	 * for each client (so it may read a server's URL that is known only once it started)
	 * @return the fixture, to register on an instance field
	 */
	public static McpClients of(Supplier<McpClientBuilder> base) {
		return new McpClients(Objects.requireNonNull(base, "base"));
	}

	/**
	 * Builds a client from the base builder, recording its events, with the test's settings
	 * applied last.
	 * @param customizer the test's settings
	 * @return the client, closed after the test
	 */
	public McpClient client(Consumer<McpClientBuilder> customizer) {
		McpClientBuilder builder = this.base.get().eventListener(this.events::add);
		customizer.accept(builder);
		McpClient client = builder.build();
		this.built.add(client);
		return client;
	}

	/**
	 * Builds a client from the base builder alone, recording its events.
	 * @return the client, closed after the test
	 */
	public McpClient client() {
		return client((builder) -> {
		});
	}

	/**
	 * The client built last in this test.
	 * @return the client
	 * @throws IllegalStateException if the test built none
	 */
	public McpClient last() {
		if (this.built.isEmpty()) {
			throw new IllegalStateException("this test built no client yet");
		}
		return this.built.get(this.built.size() - 1);
	}

	/**
	 * The events of every client of this test, in the order they were published.
	 * @return the live list
	 */
	public List<McpEvent> events() {
		return this.events;
	}

	/**
	 * The events of one type of every client of this test.
	 * @param <T> the event type
	 * @param type the event type
	 * @return a snapshot, in the order they were published
	 */
	public <T extends McpEvent> List<T> events(Class<T> type) {
		return this.events.stream().filter(type::isInstance).map(type::cast).toList();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		List<McpClient> clients = new ArrayList<>(this.built);
		this.built.clear();
		this.events.clear();
		RuntimeException failure = null;
		for (int i = clients.size() - 1; i >= 0; i--) {
			try {
				clients.get(i).close();
			}
			catch (RuntimeException ex) {
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

}
