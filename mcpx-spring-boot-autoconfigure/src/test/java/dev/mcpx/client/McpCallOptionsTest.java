package dev.mcpx.client;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The defaults and the validation of {@link McpCallOptions}.
 */
class McpCallOptionsTest {

	@Test
	void progressResetsTheTimeoutByDefaultAndTheCapIsTenTimesTheTimeout() {
		McpCallOptions options = McpCallOptions.builder().timeout(Duration.ofSeconds(3)).build();
		assertThat(options.resetTimeoutOnProgress()).isTrue();
		assertThat(options.maxTotalTimeout(Duration.ofSeconds(3))).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void aCapBelowTheTimeoutIsRaisedToTheTimeout() {
		McpCallOptions options = McpCallOptions.builder().maxTotalTimeout(Duration.ofSeconds(1)).build();
		assertThat(options.maxTotalTimeout(Duration.ofSeconds(5))).isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void theProgressTokenIsTheClientsAndTimeoutsMustBePositive() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> McpCallOptions.builder().meta(Map.of("progressToken", "mine")));
		assertThatIllegalArgumentException().isThrownBy(() -> McpCallOptions.builder().timeout(Duration.ZERO));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> McpCallOptions.builder().maxTotalTimeout(Duration.ofSeconds(-1)));
	}

}
