package dev.mcpx.client.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.mcpx.client.internal.transport.http.SseEvent;
import dev.mcpx.client.internal.transport.http.SseParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Seeded-random fuzz of {@link SseParser} (WHATWG HTML §9.2.6 "Interpreting an event
 * stream", as MCP's Streamable HTTP uses it: 2025-11-25 transports §Sending Messages): any
 * bytes, any mix of CR, LF and CRLF line endings, reads split anywhere (inside a CRLF, inside
 * a UTF-8 sequence), huge and endless lines. The parser must only ever return an event,
 * return {@code null} at the end, or refuse an event beyond {@code maxEventBytes}; and it
 * must never read much past that bound, whatever the stream.
 */
class SseParserFuzzTest {

	private static final String[] FIELDS = { "data", "event", "id", "retry", "Data", "foo", "", " data", "data " };

	private static final String[] VALUE_PIECES = { "a", "z", "0", "9", " ", "  ", ":", ": ", "\t", "{", "}", "\"",
			"é", "ß", "中文", "😀", "\u0000", "\u007f", "\u2028", "\ufeff", "data", "id", "{\"jsonrpc\":\"2.0\"}" };

	private static final String[] ENDINGS = { "\n", "\r", "\r\n" };

	// --- any bytes ------------------------------------------------------------------

	@Test
	void arbitraryBytesGiveEventsThenTheEndOrARefusalNeverAnythingElse() {
		Random random = Seeds.random("SseParser arbitrary bytes");
		int cases = Seeds.iterations(3000);
		for (int c = 0; c < cases; c++) {
			int max = 1 + random.nextInt(2048);
			byte[] bytes = sseShapedBytes(random, random.nextInt(16_384));
			SplitStream in = new SplitStream(bytes, random);
			SseParser parser = new SseParser(in, max);
			int events = 0;
			try {
				for (SseEvent event = parser.next(); event != null; event = parser.next()) {
					events++;
					// Characters never outnumber the bytes they came from.
					assertThat(event.data().length()).as("case %d: data within the bound", c).isLessThanOrEqualTo(max);
					assertThat(event.type()).isNotNull();
					assertThat(event.retryMillis()).isGreaterThanOrEqualTo(-1);
					if (event.id() != null) {
						assertThat(event.id()).doesNotContain("\u0000");
						assertThat(event.id().length()).isLessThanOrEqualTo(max);
					}
					assertThat(events).as("case %d: no more events than bytes", c).isLessThanOrEqualTo(bytes.length);
				}
				assertThat(in.exhausted()).as("case %d: the end is reported only at the end of the bytes", c).isTrue();
			}
			catch (SseParser.EventTooLargeException ex) {
				// The only refusal the parser may give.
			}
			catch (IOException | RuntimeException ex) {
				fail("case " + c + " (max " + max + ", " + bytes.length + " bytes): " + ex, ex);
			}
		}
	}

	// --- a model of the stream ------------------------------------------------------

	/**
	 * Random events written with random line endings and read in random pieces come out as
	 * written: data lines joined by LF, the event type, the last id (kept across events,
	 * ignored when it holds NUL), {@code retry} only when all digits; comments and unknown
	 * fields ignored; a field without a colon has an empty value; one space after the colon
	 * is dropped; an unterminated last event is discarded.
	 */
	@Test
	void randomEventStreamsParseAsWrittenWhateverTheLineEndingsAndReadSizes() throws IOException {
		Random random = Seeds.random("SseParser model");
		int cases = Seeds.iterations(2000);
		for (int c = 0; c < cases; c++) {
			StreamWriter writer = new StreamWriter(random);
			List<SseEvent> expected = new ArrayList<>();
			String lastId = null;
			int blocks = random.nextInt(12);
			for (int b = 0; b < blocks; b++) {
				boolean last = b == blocks - 1;
				boolean terminated = !last || random.nextInt(4) != 0;
				List<String> dataLines = new ArrayList<>();
				String type = null;
				long retry = -1;
				boolean sawField = false;
				int lines = random.nextInt(6);
				for (int l = 0; l < lines; l++) {
					switch (random.nextInt(8)) {
						case 0, 1, 2 -> {
							String value = value(random);
							dataLines.add(value);
							writer.field("data", value);
							sawField = true;
						}
						case 3 -> {
							type = nonEmpty(random);
							writer.field("event", type);
							sawField = true;
						}
						case 4 -> {
							String id = value(random);
							writer.field("id", id);
							if (id.indexOf('\0') < 0) {
								lastId = id;
							}
							sawField = true;
						}
						case 5 -> {
							boolean valid = random.nextBoolean();
							String value = valid ? Integer.toString(random.nextInt(100_000)) : value(random) + "x";
							writer.field("retry", value);
							if (valid) {
								retry = Long.parseLong(value);
							}
							sawField = true;
						}
						case 6 -> writer.line(":" + value(random));
						default -> writer.field(random.nextBoolean() ? "foo" : "Data", value(random));
					}
				}
				if (terminated) {
					writer.line("");
					if (sawField) {
						expected.add(new SseEvent(lastId, (type != null) ? type : "message", String.join("\n", dataLines),
								retry));
					}
				}
			}
			byte[] bytes = writer.bytes();
			SseParser parser = new SseParser(new SplitStream(bytes, random), Integer.MAX_VALUE / 2);
			List<SseEvent> actual = new ArrayList<>();
			for (SseEvent event = parser.next(); event != null; event = parser.next()) {
				actual.add(event);
			}
			assertThat(actual).as("case %d, stream %s", c, printable(bytes)).isEqualTo(expected);
		}
	}

	// --- bounded memory -------------------------------------------------------------

	@Test
	void anEndlessLineIsRefusedAfterReadingAtMostAboutTheBound() {
		Random random = Seeds.random("SseParser endless line");
		for (int c = 0; c < Seeds.iterations(50); c++) {
			int max = 1 + random.nextInt(256 * 1024);
			byte fill = (byte) "adi: \u00e9x".getBytes(StandardCharsets.UTF_8)[random.nextInt(7)];
			EndlessStream in = new EndlessStream(new byte[] { fill }, (random.nextBoolean() ? "data: " : ""));
			refusedWithinBound(in, max);
		}
	}

	@Test
	void endlessDataLinesWithoutABlankLineAreRefusedAfterReadingAtMostAboutTheBound() {
		Random random = Seeds.random("SseParser endless event");
		for (int c = 0; c < Seeds.iterations(50); c++) {
			int max = 1 + random.nextInt(256 * 1024);
			String line = "data: " + "x".repeat(random.nextInt(100)) + ENDINGS[random.nextInt(3)];
			refusedWithinBound(new EndlessStream(line.getBytes(StandardCharsets.UTF_8), ""), max);
		}
	}

	@Test
	void anEndlessStreamOfSmallEventsIsNeverRefused() throws IOException {
		int max = 1024;
		EndlessStream in = new EndlessStream("id: 7\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n\n"
			.getBytes(StandardCharsets.UTF_8), "");
		SseParser parser = new SseParser(in, max);
		for (int i = 0; i < 100_000; i++) {
			assertThat(parser.next()).isNotNull();
		}
	}

	/**
	 * Heartbeat comments ({@code : ping}) and blocks of unknown fields are never dispatched
	 * (WHATWG §9.2.6), so they make no event and must not count against any event's size.
	 */
	@Test
	void heartbeatCommentsNeverCountAgainstTheBound() throws IOException {
		int max = 1024;
		// 100 times the bound in heartbeats, 10 times in blocks of unknown fields, then one small event.
		SseParser parser = new SseParser(new ConcatStream(": ping\n\n".repeat(100 * max / 8)
				+ "foo: bar\n\n".repeat(max) + "data: after\n\n"), max);
		assertThat(parser.next().data()).isEqualTo("after");
	}

	private static void refusedWithinBound(CountingStream in, int max) {
		SseParser parser = new SseParser(in, max);
		try {
			for (int events = 0; events < 10; events++) {
				parser.next();
			}
			fail("an endless event was not refused (max " + max + ", read " + in.consumed() + " bytes)");
		}
		catch (SseParser.EventTooLargeException ex) {
			// Line endings are not counted, field names are: a line of at least 5 counted bytes
			// ("data:") carries at most 2 uncounted ones; 8192 is the parser's read chunk.
			assertThat(in.consumed()).as("bytes read before the refusal (max %d)", max)
				.isLessThanOrEqualTo(2L * max + 8192 + 16);
		}
		catch (IOException ex) {
			fail("unexpected I/O failure", ex);
		}
	}

	// --- generators -----------------------------------------------------------------

	/** Bytes that look like an event stream often enough to reach every branch of the parser. */
	private static byte[] sseShapedBytes(Random random, int length) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(length + 64);
		while (out.size() < length) {
			switch (random.nextInt(10)) {
				case 0 -> out.write(random.nextInt(256));
				case 1 -> out.writeBytes(ENDINGS[random.nextInt(3)].getBytes(StandardCharsets.US_ASCII));
				case 2 -> out.writeBytes((FIELDS[random.nextInt(FIELDS.length)] + ":").getBytes(StandardCharsets.UTF_8));
				case 3 -> {
					byte[] noise = new byte[1 + random.nextInt(64)];
					random.nextBytes(noise);
					out.writeBytes(noise);
				}
				case 4 -> out.writeBytes("x".repeat(random.nextInt(4096)).getBytes(StandardCharsets.US_ASCII));
				default -> out.writeBytes(value(random).getBytes(StandardCharsets.UTF_8));
			}
		}
		return out.toByteArray();
	}

	private static String value(Random random) {
		StringBuilder value = new StringBuilder();
		int pieces = random.nextInt(6);
		for (int i = 0; i < pieces; i++) {
			value.append(VALUE_PIECES[random.nextInt(VALUE_PIECES.length)]);
		}
		return value.toString();
	}

	private static String nonEmpty(Random random) {
		String value = value(random);
		return value.isEmpty() ? "t" : value;
	}

	private static String printable(byte[] bytes) {
		String text = new String(bytes, StandardCharsets.UTF_8).replace("\r", "\\r").replace("\n", "\\n");
		return (text.length() > 600) ? text.substring(0, 600) + "..." : text;
	}

	/** Writes lines with random endings; a CR is never followed by the LF that ends an empty line. */
	private static final class StreamWriter {

		private final Random random;

		private final StringBuilder out = new StringBuilder();

		private boolean lastWasCr;

		StreamWriter(Random random) {
			this.random = random;
		}

		void field(String name, String value) {
			// one space after the colon is dropped, so a value that starts with a space needs one more
			String withColon = name + ":" + (value.startsWith(" ") ? " " + value : value);
			switch (this.random.nextInt(4)) {
				case 0 -> line(value.isEmpty() ? name : withColon);
				case 1 -> line(name + ": " + value);
				default -> line(withColon);
			}
		}

		void line(String text) {
			String ending = ENDINGS[this.random.nextInt(3)];
			if (this.lastWasCr && text.isEmpty() && ending.equals("\n")) {
				// CR then LF would be one CRLF ending, swallowing this empty line.
				ending = "\r\n";
			}
			this.out.append(text).append(ending);
			this.lastWasCr = ending.equals("\r");
		}

		byte[] bytes() {
			return this.out.toString().getBytes(StandardCharsets.UTF_8);
		}

	}

	/** Counts the bytes the parser took. */
	private abstract static class CountingStream extends InputStream {

		long consumed;

		long consumed() {
			return this.consumed;
		}

	}

	/** The bytes, handed out in random pieces (1 to 64 bytes, sometimes a whole chunk). */
	private static final class SplitStream extends CountingStream {

		private final byte[] bytes;

		private final Random random;

		private int pos;

		SplitStream(byte[] bytes, Random random) {
			this.bytes = bytes;
			this.random = random;
		}

		boolean exhausted() {
			return this.pos == this.bytes.length;
		}

		@Override
		public int read() {
			byte[] one = new byte[1];
			return (read(one, 0, 1) < 0) ? -1 : (one[0] & 0xff);
		}

		@Override
		public int read(byte[] b, int off, int len) {
			if (this.pos == this.bytes.length) {
				return -1;
			}
			int piece = (this.random.nextInt(8) == 0) ? len : 1 + this.random.nextInt(64);
			int n = Math.min(Math.min(piece, len), this.bytes.length - this.pos);
			System.arraycopy(this.bytes, this.pos, b, off, n);
			this.pos += n;
			this.consumed += n;
			return n;
		}

	}

	/** A prefix, then a pattern repeated forever. */
	private static final class EndlessStream extends CountingStream {

		private final byte[] prefix;

		private final byte[] pattern;

		private long pos;

		EndlessStream(byte[] pattern, String prefix) {
			this.pattern = pattern;
			this.prefix = prefix.getBytes(StandardCharsets.UTF_8);
		}

		@Override
		public int read() {
			byte[] one = new byte[1];
			read(one, 0, 1);
			return one[0] & 0xff;
		}

		@Override
		public int read(byte[] b, int off, int len) {
			for (int i = 0; i < len; i++) {
				b[off + i] = (this.pos < this.prefix.length) ? this.prefix[(int) this.pos]
						: this.pattern[(int) ((this.pos - this.prefix.length) % this.pattern.length)];
				this.pos++;
			}
			this.consumed += len;
			return len;
		}

	}

	/** A fixed text. */
	private static final class ConcatStream extends CountingStream {

		private final java.io.ByteArrayInputStream in;

		ConcatStream(String text) {
			this.in = new java.io.ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
		}

		@Override
		public int read() {
			return this.in.read();
		}

		@Override
		public int read(byte[] b, int off, int len) {
			int n = this.in.read(b, off, len);
			this.consumed += Math.max(n, 0);
			return n;
		}

	}

}
