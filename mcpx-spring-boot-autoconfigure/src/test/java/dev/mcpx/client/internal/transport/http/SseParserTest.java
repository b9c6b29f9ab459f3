package dev.mcpx.client.internal.transport.http;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

	// --- the last event ID: WHATWG HTML §9.2.6 (set when an event is dispatched); 2025-11-25
	// basic/transports §Resumability and Redelivery ("the last event ID it received") --------------

	@ParameterizedTest
	@ValueSource(strings = { "\n", "\r\n", "\r" })
	void aStreamCutAtAnyByteOfAnEventResumesFromTheLastCompleteEvent(String eol) throws IOException {
		String first = "id: ev-1" + eol + "data: {\"n\":1}" + eol + eol;
		// The id line first, as servers write it, then the same event with its id after the data.
		for (String second : List.of("id: ev-2" + eol + "event: message" + eol + "data: {\"n\":2}" + eol + eol,
				"data: {\"n\":2}" + eol + "retry: 500" + eol + "id: ev-2" + eol + eol)) {
			// A CR ends a line at once: the blank line's CR dispatches, its LF is only the CRLF's end.
			int dispatchedAt = second.length() - (eol.equals("\r\n") ? 1 : 0);
			for (int cut = 0; cut <= second.length(); cut++) {
				SseParser parser = parser(first + second.substring(0, cut));
				List<String> ids = new ArrayList<>();
				for (SseEvent e = parser.next(); e != null; e = parser.next()) {
					ids.add(e.id());
				}
				String expected = (cut >= dispatchedAt) ? "ev-2" : "ev-1";
				assertThat(parser.lastEventId()).as("cut after %d bytes of %s", cut, visible(second))
					.isEqualTo(expected);
				assertThat(ids).as("events dispatched, cut after %d bytes", cut)
					.isEqualTo((cut >= dispatchedAt) ? List.of("ev-1", "ev-2") : List.of("ev-1"));
			}
		}
	}

	@Test
	void aStreamCutBeforeItsFirstEventEndedHasNothingToResumeFrom() throws IOException {
		String priming = "id: prime-1\ndata:\n\n";
		for (int cut = 0; cut < priming.length(); cut++) {
			SseParser parser = parser(priming.substring(0, cut));
			assertThat(parser.next()).isNull();
			assertThat(parser.lastEventId()).as("cut after %d bytes", cut).isNull();
		}
		SseParser whole = parser(priming);
		assertThat(whole.next().hasData()).isFalse();
		assertThat(whole.lastEventId()).isEqualTo("prime-1");
	}

	@Test
	void anEventWithoutAnIdKeepsTheLastOneAndAnEmptyIdClearsIt() throws IOException {
		SseParser parser = parser("id: a\ndata: 1\n\ndata: 2\n\nid:\ndata: 3\n\n");
		assertThat(parser.next().id()).isEqualTo("a");
		assertThat(parser.next().id()).isEqualTo("a");
		assertThat(parser.lastEventId()).isEqualTo("a");
		assertThat(parser.next().id()).isEmpty();
		assertThat(parser.lastEventId()).isEmpty();
	}

	@Test
	void anIdSetAgainByALaterEventIsARepeatAndAnEventWithoutAnIdIsNot() throws IOException {
		assertThat(repeats("id: s\ndata: 1\n\nid: s\ndata: 2\n\n")).isTrue();
		assertThat(repeats("id: a\ndata: 1\n\nid: b\ndata: 2\n\nid: a\ndata: 3\n\n")).isTrue();
		assertThat(repeats("id: a\ndata: 1\n\nid: b\ndata: 2\n\nid: c\ndata: 3\n\n")).isFalse();
		// An event without an id keeps the last one; that is no repeat of it.
		assertThat(repeats("id: a\ndata: 1\n\ndata: 2\n\ndata: 3\n\n")).isFalse();
		// An event cut before its blank line was never dispatched: its id line repeats nothing.
		assertThat(repeats("id: a\ndata: 1\n\nid: a\ndata: 2")).isFalse();
		assertThat(repeats("id:\ndata: 1\n\nid:\ndata: 2\n\n")).isFalse();
	}

	@Test
	void repeatsAreSeenAmongAsManyIdsAsTheParserRemembers() throws IOException {
		StringBuilder stream = new StringBuilder();
		for (int i = 0; i < SseParser.MAX_REMEMBERED_IDS; i++) {
			stream.append("id: e").append(i).append("\ndata: x\n\n");
		}
		assertThat(repeats(stream + "id: e0\ndata: x\n\n")).isTrue();
		assertThat(repeats(stream + "id: new\ndata: x\n\n")).isFalse();
	}

	private static boolean repeats(String body) throws IOException {
		SseParser parser = parser(body);
		while (parser.next() != null) {
			// read to the end
		}
		return parser.idsRepeat();
	}

	private static String visible(String text) {
		return text.replace("\r", "\\r").replace("\n", "\\n");
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
