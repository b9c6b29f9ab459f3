package dev.mcpx.client.internal.transport.stdio;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.mcpx.client.internal.protocol.Redaction;

/**
 * Writes what a server process prints on its stderr to the log category
 * {@code dev.mcpx.upstream.<name>}, one entry per line, at INFO: stderr is a log, never
 * protocol, and not a sign of error (2025-11-25 basic/transports §stdio: the client SHOULD
 * NOT assume stderr output indicates error conditions). Bounded: a line is cut at
 * {@link #MAX_LINE_CHARS}, at most {@link #MAX_LINES_PER_SECOND} lines a second are written
 * and the rest are counted; environment values given to the child are scrubbed.
 */
final class StderrLog implements Runnable {

	/** A log entry long enough for a stack trace line, short enough for any log pipeline. */
	static final int MAX_LINE_CHARS = 2000;

	/** A chatty server must not flood the application's log. */
	static final int MAX_LINES_PER_SECOND = 50;

	private static final long SECOND_NANOS = 1_000_000_000L;

	private final InputStream stderr;

	private final Log log;

	private final String prefix;

	private final List<String> secrets;

	/** Holds no session id: a stdio session has none; only the given secrets are scrubbed. */
	private final Redaction redaction = new Redaction();

	private long windowStart = System.nanoTime();

	private int linesInWindow;

	private long suppressed;

	/**
	 * Creates the log of one process.
	 * @param upstream the upstream name
	 * @param pid the process id
	 * @param stderr the process's stderr
	 * @param secrets values that must never be written (the environment given to the child)
	 */
	StderrLog(String upstream, long pid, InputStream stderr, List<String> secrets) {
		this.stderr = stderr;
		this.log = LogFactory.getLog("dev.mcpx.upstream." + upstream);
		this.prefix = "[" + upstream + " pid " + pid + "] ";
		this.secrets = secrets;
	}

	@Override
	public void run() {
		LineReader lines = new LineReader(this.stderr, MAX_LINE_CHARS * 4, true);
		try {
			for (byte[] line = lines.next(); line != null; line = lines.next()) {
				write(new String(line, StandardCharsets.UTF_8), lines.lastTruncated());
			}
		}
		catch (IOException ex) {
			// The process is gone or its stream was closed: nothing more to log.
		}
		if (this.suppressed > 0) {
			this.log.info(this.prefix + this.suppressed + " more stderr line(s) were not logged (more than "
					+ MAX_LINES_PER_SECOND + " a second)");
		}
	}

	private void write(String line, boolean truncated) {
		if (!this.log.isInfoEnabled() || line.isBlank()) {
			return;
		}
		long now = System.nanoTime();
		if (now - this.windowStart >= SECOND_NANOS) {
			if (this.suppressed > 0) {
				this.log.info(this.prefix + this.suppressed + " stderr line(s) were not logged (more than "
						+ MAX_LINES_PER_SECOND + " a second)");
				this.suppressed = 0;
			}
			this.windowStart = now;
			this.linesInWindow = 0;
		}
		if (++this.linesInWindow > MAX_LINES_PER_SECOND) {
			this.suppressed++;
			return;
		}
		String text = String.valueOf(this.redaction.scrub(printable(line), this.secrets));
		if (text.length() > MAX_LINE_CHARS) {
			text = text.substring(0, MAX_LINE_CHARS);
			truncated = true;
		}
		this.log.info(this.prefix + text + (truncated ? " […]" : ""));
	}

	/** Control characters could forge log lines or terminal escapes. */
	private static String printable(String line) {
		StringBuilder text = null;
		for (int i = 0; i < line.length(); i++) {
			char c = line.charAt(i);
			boolean control = (c < 0x20 && c != '\t') || c == 0x7F;
			if (control && text == null) {
				text = new StringBuilder(line.length()).append(line, 0, i);
			}
			if (text != null) {
				text.append(control ? '?' : c);
			}
		}
		return (text != null) ? text.toString() : line;
	}

}
