package dev.mcpx.client;

import java.time.Duration;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.error.McpTaskStoreVersionException;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.client.model.ProtocolEra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The in-memory journal keeps the {@link McpTaskStore} contract. Its replicas are owners of one store's rows, which
 * is how a store in memory is shared: by the clients of one application.
 */
class InMemoryMcpTaskStoreTest extends McpTaskStoreContract {

	private @Nullable InMemoryMcpTaskStore first;

	@Override
	protected McpTaskStore replica(Duration lease) {
		InMemoryMcpTaskStore journal = this.first;
		if (journal == null) {
			this.first = new InMemoryMcpTaskStore(lease);
			return this.first;
		}
		return journal.replica();
	}

	@Test
	void aRowOfANewerFormatIsRefusedByKeyAndNeverClaimed() {
		McpTaskStore store = McpTaskStore.inMemory();
		McpTaskRecord newer = new McpTaskRecord(McpTaskStore.FORMAT_VERSION + 1, "weather", "t-9", "tool",
				ProtocolEra.MODERN, McpTaskStatus.WORKING, null, "00", null, T0, T0, null, null, null, null, null,
				null);
		store.create(newer);
		assertThatExceptionOfType(McpTaskStoreVersionException.class)
			.isThrownBy(() -> store.find("weather", "t-9"))
			.satisfies((ex) -> {
				assertThat(ex.rowVersion()).isEqualTo(McpTaskStore.FORMAT_VERSION + 1);
				assertThat(ex.getMessage()).contains("t-9", "newer");
			});
		assertThat(store.claim(Set.of("weather"), T0.plusSeconds(3600), 10)).isEmpty();
		assertThat(store.unfinished("weather")).isEmpty();
	}

	@Test
	void aLeaseMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryMcpTaskStore(Duration.ZERO))
			.withMessageContaining("lease");
	}

}
