package dev.mcpx.client.internal.transport.stdio;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Newline-delimited framing of stdio (2025-11-25 basic/transports §stdio), bounded.
 */
class LineReaderTest {

	@Test
	void linesAreSplitAtNewlinesWithAnOptionalCarriageReturnRemoved() throws IOException {
		LineReader reader = reader("{\"a\":1}\n{\"b\":2}\r\n\nlast", 1024, false);
		assertThat(text(reader.next())).isEqualTo("{\"a\":1}");
		assertThat(text(reader.next())).isEqualTo("{\"b\":2}");
		assertThat(text(reader.next())).isEmpty();
		assertThat(text(reader.next())).isEqualTo("last");
		assertThat(reader.next()).isNull();
	}

	@Test
	void aLineSplitAcrossManyReadsIsJoined() throws IOException {
		String line = "x".repeat(100_000);
		LineReader reader = new LineReader(new TrickleStream((line + "\nnext\n").getBytes(StandardCharsets.UTF_8), 7),
				200_000, false);
		assertThat(text(reader.next())).isEqualTo(line);
		assertThat(text(reader.next())).isEqualTo("next");
	}

	@Test
	void aHundredMegabyteLineFailsAfterReadingLittleMoreThanTheLimit() {
		int limit = 1024 * 1024;
		EndlessLine stream = new EndlessLine(100L * 1024 * 1024);
		LineReader reader = new LineReader(stream, limit, false);
		assertThatExceptionOfType(LineTooLongException.class).isThrownBy(reader::next)
			.withMessageContaining("limit of " + limit + " bytes");
		// Memory stays bounded: the reader stopped at the limit (plus one read buffer).
		assertThat(stream.served).isLessThanOrEqualTo(limit + 8192L);
	}

	@Test
	void aLongLogLineIsCutAtTheLimitAndTheNextLineIsIntact() throws IOException {
		LineReader reader = reader("y".repeat(50_000) + "\nshort\n", 100, true);
		byte[] first = reader.next();
		assertThat(first).hasSize(100);
		assertThat(reader.lastTruncated()).isTrue();
		assertThat(text(reader.next())).isEqualTo("short");
		assertThat(reader.lastTruncated()).isFalse();
	}

	private static LineReader reader(String text, int limit, boolean truncate) {
		return new LineReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), limit, truncate);
	}

	private static String text(byte[] line) {
		return new String(line, StandardCharsets.UTF_8);
	}

	/** Serves at most a few bytes per read, as a slow pipe does. */
	private static final class TrickleStream extends InputStream {

		private final ByteArrayInputStream bytes;

		private final int most;

		TrickleStream(byte[] bytes, int most) {
			this.bytes = new ByteArrayInputStream(bytes);
			this.most = most;
		}

		@Override
		public int read() {
			return this.bytes.read();
		}

		@Override
		public int read(byte[] b, int off, int len) {
			return this.bytes.read(b, off, Math.min(len, this.most));
		}

	}

	/** A line of the given length with no newline, generated, counting what was read. */
	private static final class EndlessLine extends InputStream {

		private final long length;

		long served;

		EndlessLine(long length) {
			this.length = length;
		}

		@Override
		public int read() {
			return (this.served++ < this.length) ? 'x' : -1;
		}

		@Override
		public int read(byte[] b, int off, int len) {
			if (this.served >= this.length) {
				return -1;
			}
			int n = (int) Math.min(len, this.length - this.served);
			java.util.Arrays.fill(b, off, off + n, (byte) 'x');
			this.served += n;
			return n;
		}

	}

}
