package dev.mcpx.client.internal.transport.stdio;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * Reads newline-delimited lines from a stream without ever holding more than the limit of
 * one line in memory (2025-11-25 basic/transports §stdio: messages are delimited by
 * newlines). A line longer than the limit either fails the read ({@link LineTooLongException},
 * for protocol lines) or is cut at the limit and its rest skipped (for log lines).
 */
final class LineReader {

	private static final int CHUNK = 8192;

	/** Where a line starts to be gathered: most messages are small. */
	private static final int INITIAL_LINE = 1024;

	private final InputStream in;

	private final int limit;

	private final boolean truncate;

	private final byte[] chunk = new byte[CHUNK];

	private int position;

	private int end;

	private byte[] line = new byte[INITIAL_LINE];

	private boolean lastTruncated;

	/**
	 * Creates a reader.
	 * @param in the stream
	 * @param limit the longest line kept, in bytes
	 * @param truncate whether a longer line is cut (else it fails the read)
	 */
	LineReader(InputStream in, int limit, boolean truncate) {
		this.in = in;
		this.limit = limit;
		this.truncate = truncate;
	}

	/**
	 * The next line, without its {@code \n} (and a {@code \r} before it).
	 * @return the line's bytes, absent at the end of the stream (a last line without a
	 * newline is returned first)
	 * @throws LineTooLongException if the line exceeds the limit and is not cut
	 * @throws IOException if reading fails
	 */
	byte @Nullable [] next() throws IOException {
		int length = 0;
		boolean skipping = false;
		this.lastTruncated = false;
		while (true) {
			if (this.position == this.end) {
				int read = this.in.read(this.chunk, 0, CHUNK);
				if (read < 0) {
					return (length > 0 || skipping) ? finish(length) : null;
				}
				this.position = 0;
				this.end = read;
			}
			int newline = indexOfNewline();
			int stop = (newline >= 0) ? newline : this.end;
			int count = stop - this.position;
			if (!skipping) {
				if (length + count > this.limit) {
					if (!this.truncate) {
						// Nothing more of this line is read: the caller drops the whole channel.
						throw new LineTooLongException(this.limit);
					}
					count = this.limit - length;
					skipping = true;
					this.lastTruncated = true;
				}
				append(length, count);
				length += count;
			}
			if (newline >= 0) {
				this.position = newline + 1;
				return finish(length);
			}
			this.position = this.end;
		}
	}

	/**
	 * Whether the last line returned was cut at the limit.
	 * @return {@code true} when it was longer than the limit
	 */
	boolean lastTruncated() {
		return this.lastTruncated;
	}

	private int indexOfNewline() {
		for (int i = this.position; i < this.end; i++) {
			if (this.chunk[i] == '\n') {
				return i;
			}
		}
		return -1;
	}

	private void append(int length, int count) {
		if (length + count > this.line.length) {
			int grown = Math.max(this.line.length * 2, length + count);
			this.line = Arrays.copyOf(this.line, Math.min(grown, Math.max(this.limit, INITIAL_LINE)));
		}
		System.arraycopy(this.chunk, this.position, this.line, length, count);
	}

	private byte[] finish(int length) {
		int trimmed = (length > 0 && this.line[length - 1] == '\r') ? length - 1 : length;
		byte[] result = Arrays.copyOf(this.line, trimmed);
		if (this.line.length > CHUNK * 8) {
			// One huge message must not pin its buffer for the channel's life.
			this.line = new byte[INITIAL_LINE];
		}
		return result;
	}

}
