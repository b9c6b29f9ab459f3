package dev.mcpx.client.recovery;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RecoveryPolicyTest {

	@Test
	void theDefaultsRecoverEverythingAndTrustAnnotations() {
		RecoveryPolicy policy = RecoveryPolicy.ofDefaults();
		assertThat(policy.sessionExpiry()).isTrue();
		assertThat(policy.expiryOnBadRequest()).isTrue();
		assertThat(policy.brokenStream()).isTrue();
		assertThat(policy.resumptionAttempts()).isEqualTo(RecoveryPolicy.DEFAULT_RESUMPTION_ATTEMPTS);
		assertThat(policy.trustAnnotations()).isTrue();
		assertThat(policy.tools()).isEmpty();
		assertThat(policy.toolReplay("anything")).isEqualTo(ToolReplay.ANNOTATIONS);
		assertThat(RecoveryPolicy.custom().build()).isEqualTo(policy);
	}

	@Test
	void aPolicyFromABaseKeepsWhatItDoesNotChange() {
		RecoveryPolicy base = RecoveryPolicy.custom()
			.trustAnnotations(false)
			.resumptionAttempts(1)
			.tool("delete_city", ToolReplay.NEVER)
			.build();
		RecoveryPolicy derived = RecoveryPolicy.from(base).sessionExpiry(false).tool("get", ToolReplay.ALWAYS).build();
		assertThat(derived.sessionExpiry()).isFalse();
		assertThat(derived.trustAnnotations()).isFalse();
		assertThat(derived.resumptionAttempts()).isEqualTo(1);
		assertThat(derived.toolReplay("delete_city")).isEqualTo(ToolReplay.NEVER);
		assertThat(derived.toolReplay("get")).isEqualTo(ToolReplay.ALWAYS);
		assertThat(base.sessionExpiry()).as("the base is unchanged").isTrue();
		assertThat(base.tools()).containsOnlyKeys("delete_city");
	}

	@Test
	void negativeResumptionAttemptsAreRefusedWithTheValue() {
		assertThatIllegalArgumentException().isThrownBy(() -> RecoveryPolicy.custom().resumptionAttempts(-1))
			.withMessageContaining("-1");
	}

	@Test
	void theToolsOfAPolicyCannotBeChangedAfterItIsBuilt() {
		RecoveryPolicy policy = RecoveryPolicy.custom().tool("a", ToolReplay.NEVER).build();
		org.assertj.core.api.Assertions.assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> policy.tools().put("b", ToolReplay.ALWAYS));
		assertThat(policy.toString()).contains("a=NEVER");
	}

}
