package dev.mcpx.client.internal.catalogue;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import dev.mcpx.client.internal.events.McpEvents;
import dev.mcpx.client.internal.protocol.ToolHeaders;
import dev.mcpx.client.model.Tool;
import dev.mcpx.client.model.ToolAnnotations;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the registry lists for: an unknown tool once, then not again for a while when the
 * listing lacked it (a tool the server calls but does not list), and again once the
 * listings or the session changed.
 */
class ToolRegistryTest {

	private final AtomicLong now = new AtomicLong();

	private final AtomicInteger listings = new AtomicInteger();

	private final ToolRegistry registry = new ToolRegistry(this.now::get);

	private List<Tool> listed = List.of(tool("listed"));

	ToolRegistryTest() {
		this.registry.listWith(() -> {
			this.listings.incrementAndGet();
			this.registry.remember(this.listed);
		});
	}

	@Test
	void aListedToolIsLearnedOnceAndNeverListedForAgain() {
		assertThat(this.registry.learn("listed")).isPresent();
		assertThat(this.registry.headers("listed").isValid()).isTrue();
		assertThat(this.registry.worthListingFor("listed")).isFalse();
		assertThat(this.listings).hasValue(1);
	}

	@Test
	void aToolMissingFromTheListingIsNotListedForAgainUntilTheRecheckIsDue() {
		assertThat(this.registry.learn("unlisted")).isEmpty();
		assertThat(this.registry.headers("unlisted")).isEqualTo(ToolHeaders.NONE);
		assertThat(this.registry.learn("unlisted")).isEmpty();
		assertThat(this.listings).hasValue(1);

		this.now.addAndGet(ToolRegistry.ABSENT_RECHECK.toNanos() - 1);
		assertThat(this.registry.worthListingFor("unlisted")).isFalse();
		this.now.addAndGet(1);
		assertThat(this.registry.worthListingFor("unlisted")).isTrue();

		this.listed = List.of(tool("listed"), tool("unlisted"));
		assertThat(this.registry.learn("unlisted")).isPresent();
		assertThat(this.listings).hasValue(2);
	}

	@Test
	void aNewSessionMakesAMissingToolWorthListingForAgain() {
		this.registry.learn("unlisted");
		assertThat(this.registry.worthListingFor("unlisted")).isFalse();
		new Catalogue("u", Duration.ofMinutes(5), Clock.systemUTC(), new McpEvents(List.of()), this.registry)
			.sessionRenewed(2);
		assertThat(this.registry.worthListingFor("unlisted")).isTrue();
	}

	@Test
	void relearningAlwaysLists() {
		this.registry.learn("listed");
		this.registry.relearn("listed");
		this.registry.relearn("unlisted");
		assertThat(this.listings).hasValue(3);
	}

	private static Tool tool(String name) {
		return new Tool(name, null, null, JsonMapper.builder().build().createObjectNode().put("type", "object"), null,
				ToolAnnotations.NONE);
	}

}
