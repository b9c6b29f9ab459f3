package dev.mcpx.client.internal.transport.http;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The event-stream parser against the WHATWG "Interpreting an event stream" rules that MCP
 * relies on (2025-11-25 transports §Sending Messages, rule 6).
 */
class SseParserTest {

	@Test
	void multiLineDataIsJoinedWithNewlines() throws IOException {
		List<SseEvent> events = parse("data: {\"a\":\ndata: 1}\n\n");
		assertThat(events).singleElement().satisfies((e) -> assertThat(e.data()).isEqualTo("{\"a\":\n1}"));
	}

	@Test
	void commentsAreSkippedAndIdAndRetryAreKept() throws IOException {
		List<SseEvent> events = parse(": keep-alive\nid: 7\nretry: 1500\ndata: x\n\n");
		assertThat(events).singleElement().satisfies((e) -> {
			assertThat(e.id()).isEqualTo("7");
			assertThat(e.retryMillis()).isEqualTo(1500);
			assertThat(e.data()).isEqualTo("x");
		});
	}

	@Test
	void aPrimingEventHasAnIdAndNoData() throws IOException {
		SseParser parser = parser("id: prime-1\ndata:\n\nid: 2\ndata: y\n\n");
		SseEvent priming = parser.next();
		assertThat(priming.hasData()).isFalse();
		assertThat(priming.id()).isEqualTo("prime-1");
		assertThat(parser.next().data()).isEqualTo("y");
		assertThat(parser.lastEventId()).isEqualTo("2");
	}

	@Test
	void crLfAndBareCrEndLines() throws IOException {
		List<SseEvent> events = parse("data: a\r\n\r\ndata: b\r\rdata: c\n\n");
		assertThat(events).extracting(SseEvent::data).containsExactly("a", "b", "c");
	}

	@Test
	void eventTypeAndNoSpaceAfterColonAreHonoured() throws IOException {
		List<SseEvent> events = parse("event: endpoint\ndata:/messages\n\n");
		assertThat(events).singleElement().satisfies((e) -> {
			assertThat(e.type()).isEqualTo("endpoint");
			assertThat(e.data()).isEqualTo("/messages");
		});
	}

	@Test
	void anIncompleteEventAtEndOfStreamIsDiscarded() throws IOException {
		assertThat(parse("data: complete\n\ndata: cut off")).extracting(SseEvent::data).containsExactly("complete");
	}

	@Test
	void anEventLargerThanTheBoundFails() {
		String big = "data: " + "x".repeat(2000) + "\n\n";
		assertThatThrownBy(() -> new SseParser(stream(big), 1024).next())
			.isInstanceOf(SseParser.EventTooLargeException.class)
			.hasMessageContaining("1024");
	}

	@Test
	void multiByteUtf8SurvivesChunkBoundaries() throws IOException {
		String text = "é".repeat(10_000);
		assertThat(parse("data: " + text + "\n\n")).singleElement()
			.satisfies((e) -> assertThat(e.data()).isEqualTo(text));
	}

	private static List<SseEvent> parse(String body) throws IOException {
		SseParser parser = parser(body);
		List<SseEvent> events = new ArrayList<>();
		for (SseEvent e = parser.next(); e != null; e = parser.next()) {
			events.add(e);
		}
		return events;
	}

	private static SseParser parser(String body) {
		return new SseParser(stream(body), 1 << 20);
	}

	private static ByteArrayInputStream stream(String body) {
		return new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8));
	}

}
