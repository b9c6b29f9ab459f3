package dev.mcpx.client.recovery;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.model.ToolAnnotations;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replay gate's ladder, rung by rung, without a server: each decision and the reason
 * that reaches events and exceptions.
 */
class DefaultReplayGateTest {

	private static final ToolAnnotations READ_ONLY = new ToolAnnotations(null, true, false, false, false);

	private static final ToolAnnotations IDEMPOTENT = new ToolAnnotations(null, false, false, true, false);

	private static final ToolAnnotations DESTRUCTIVE = new ToolAnnotations(null, false, true, false, false);

	private final DefaultReplayGate gate = new DefaultReplayGate(RecoveryPolicy.ofDefaults());

	private static ReplayContext call(String tool, ReplayCause cause, ToolAnnotations annotations) {
		return new ReplayContext("u", "tools/call", tool, cause, Optional.ofNullable(annotations));
	}

	@Test
	void readShapedRequestsAreReplayedWhateverHappened() {
		ReplayDecision decision = this.gate
			.decide(new ReplayContext("u", "resources/read", null, ReplayCause.STREAM_LOST, Optional.empty()));
		assertThat(decision.allowed()).isTrue();
		assertThat(decision.reason()).isEqualTo("resources/read is read-shaped");
	}

	@Test
	void aCallTheServerProvablyDidNotRunIsReplayedWithoutEvidence() {
		assertThat(this.gate.decide(call("delete_item", ReplayCause.SESSION_EXPIRED, DESTRUCTIVE)).allowed()).isTrue();
		assertThat(this.gate.decide(call("delete_item", ReplayCause.CREDENTIALS_REFRESHED, DESTRUCTIVE)).allowed())
			.isTrue();
	}

	@Test
	void afterALostStreamOnlyAnnotationsThatMakeASecondRunHarmlessAllowIt() {
		assertThat(this.gate.decide(call("get", ReplayCause.STREAM_LOST, READ_ONLY)).reason())
			.isEqualTo("tool 'get' is annotated readOnlyHint");
		assertThat(this.gate.decide(call("set", ReplayCause.STREAM_LOST, IDEMPOTENT)).reason())
			.isEqualTo("tool 'set' is annotated idempotentHint");
		ReplayDecision destructive = this.gate.decide(call("delete_item", ReplayCause.STREAM_LOST, DESTRUCTIVE));
		assertThat(destructive.allowed()).isFalse();
		assertThat(destructive.reason()).isEqualTo("tool 'delete_item' is not annotated read-only or idempotent");
		ReplayDecision unknown = this.gate
			.decide(new ReplayContext("u", "tools/call", "x", ReplayCause.STREAM_LOST, Optional.empty()));
		assertThat(unknown.allowed()).isFalse();
		assertThat(unknown.reason()).isEqualTo("tool 'x' has no known annotations");
	}

	@Test
	void untrustedAnnotationsNeverAllowAReplay() {
		DefaultReplayGate untrusting = new DefaultReplayGate(RecoveryPolicy.custom().trustAnnotations(false).build());
		ReplayDecision decision = untrusting.decide(call("get", ReplayCause.STREAM_LOST, READ_ONLY));
		assertThat(decision.allowed()).isFalse();
		assertThat(decision.reason()).isEqualTo("annotations of this upstream are not trusted");
	}

	@Test
	void aPerToolOverrideWinsOverEverythingElse() {
		DefaultReplayGate overridden = new DefaultReplayGate(RecoveryPolicy.custom()
			.tool("get", ToolReplay.NEVER)
			.tool("delete_item", ToolReplay.ALWAYS)
			.build());
		assertThat(overridden.decide(call("get", ReplayCause.SESSION_EXPIRED, READ_ONLY)).reason())
			.isEqualTo("tool 'get' is configured never to be re-sent");
		assertThat(overridden.decide(call("delete_item", ReplayCause.STREAM_LOST, DESTRUCTIVE)).reason())
			.isEqualTo("tool 'delete_item' is configured always to be re-sent");
	}

}
