package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * An incremental parser of a {@code text/event-stream} body, as the WHATWG HTML standard
 * §9.2.6 "Interpreting an event stream" defines it: {@code data:} lines accumulate,
 * comments are skipped, {@code id:} and {@code retry:} are honoured, lines end in CRLF, LF
 * or CR. Events are read one at a time, so a response that follows notifications is seen
 * as soon as it arrives.
 * <p>
 * Memory is bounded: an event (its data) or a single line larger than
 * {@code maxEventBytes} fails with {@link EventTooLargeException}; comments, such as
 * heartbeats, never accumulate. Not thread-safe; one per stream.
 */
public final class SseParser {

	/** Most MCP events fit; a larger one takes more reads, not more memory per stream. */
	private static final int READ_CHUNK = 2048;

	/**
	 * The ids of a stream's events remembered to see one repeat: a response stream carries a
	 * handful of events before its response; a longer stream keeps its memory fixed and sees
	 * repeats of these.
	 */
	static final int MAX_REMEMBERED_IDS = 64;

	private final InputStream in;

	private final int maxEventBytes;

	private final byte[] chunk = new byte[READ_CHUNK];

	private int chunkPos;

	private int chunkLen;

	/** A line split across reads, gathered; grown only when a line is split. */
	private byte[] line = new byte[0];

	private int lineLen;

	private boolean lastWasCr;

	/**
	 * The event's data lines, joined by line feeds, from its second line on; an event of one
	 * data line (every JSON-RPC message an MCP server sends) keeps that line as it is, in
	 * {@link #firstData}, uncopied.
	 */
	private final StringBuilder data = new StringBuilder();

	private @Nullable String firstData;

	private int dataLines;

	private int eventBytes;

	private @Nullable String eventType;

	/**
	 * The standard's "last event ID buffer": set by an {@code id:} field as soon as it is read,
	 * kept from event to event.
	 */
	private @Nullable String idBuffer;

	/**
	 * The standard's "last event ID string": the buffer as it stood when the last event was
	 * dispatched. An event cut before its blank line never sets it.
	 */
	private @Nullable String lastEventId;

	/** Whether the event being read set its own id (an event without one keeps the last). */
	private boolean eventSetId;

	/** The ids set by the events dispatched so far; made when the first one is. */
	private @Nullable Set<String> dispatchedIds;

	private boolean idsRepeat;

	private boolean sawField;

	private long retry = -1;

	/**
	 * Creates a parser of the given stream.
	 * @param in the response body
	 * @param maxEventBytes the largest event accepted, in bytes
	 */
	public SseParser(InputStream in, int maxEventBytes) {
		this.in = in;
		this.maxEventBytes = maxEventBytes;
	}

	/**
	 * The id of the last complete event, as {@code Last-Event-ID} must carry it: set when an
	 * event is dispatched (its blank line read), never by the {@code id:} line of an event cut
	 * before it ended, whose replay the server would otherwise skip (WHATWG HTML §9.2.6,
	 * "dispatch the event", step 1; 2025-11-25 basic/transports §Resumability and Redelivery:
	 * "the last event ID it received").
	 * @return the id, absent when no complete event set one
	 */
	public @Nullable String lastEventId() {
		return this.lastEventId;
	}

	/**
	 * The value of the last {@code id:} field read, whether its event was complete or not (the
	 * standard's "last event ID buffer"): not a point to resume from, but what the server names
	 * its events by.
	 * @return the value, absent when no event set one
	 */
	public @Nullable String lastIdField() {
		return this.idBuffer;
	}

	/**
	 * Whether an event set the id an earlier event of the stream had set. Such ids cannot say
	 * where in the stream to resume from: a server that gives every event the same id replays
	 * nothing after it (2025-11-25 basic/transports §Resumability and Redelivery, rule 1: an
	 * event ID "MUST be globally unique across all streams within that session").
	 * @return {@code true} once an id repeated
	 */
	public boolean idsRepeat() {
		return this.idsRepeat;
	}

	/**
	 * Reads the next event.
	 * @return the event, absent at the end of the stream
	 * @throws IOException if reading fails
	 * @throws EventTooLargeException if an event exceeds the bound
	 */
	public @Nullable SseEvent next() throws IOException {
		while (true) {
			String text = readLine();
			if (text == null) {
				// End of stream: an incomplete event is discarded (WHATWG §9.2.6).
				return null;
			}
			if (text.isEmpty()) {
				SseEvent event = dispatch();
				if (event != null) {
					return event;
				}
				continue;
			}
			processField(text);
		}
	}

	private @Nullable SseEvent dispatch() {
		this.lastEventId = this.idBuffer;
		if (this.eventSetId) {
			this.eventSetId = false;
			noteId(this.idBuffer);
		}
		if (!this.sawField) {
			// A blank line after comments only (heartbeats): nothing accumulates.
			this.eventBytes = 0;
			return null;
		}
		// The data lines joined by line feeds: the standard's buffer without its last line feed.
		String payload = switch (this.dataLines) {
			case 0 -> "";
			case 1 -> Objects.requireNonNull(this.firstData, "firstData"); // kept by the first data line
			default -> this.data.toString();
		};
		SseEvent event = new SseEvent(this.idBuffer, (this.eventType != null) ? this.eventType : "message",
				payload, this.retry);
		this.data.setLength(0);
		this.firstData = null;
		this.dataLines = 0;
		this.eventType = null;
		this.sawField = false;
		this.eventBytes = 0;
		this.retry = -1;
		return event;
	}

	private void processField(String text) {
		if (text.charAt(0) == ':') {
			return;
		}
		int colon = text.indexOf(':');
		String field = (colon < 0) ? text : text.substring(0, colon);
		String value = "";
		if (colon >= 0) {
			int start = colon + 1;
			if (start < text.length() && text.charAt(start) == ' ') {
				start++;
			}
			value = text.substring(start);
		}
		// Every field line of an event counts against its bound, comments never do.
		this.eventBytes += text.length() + 1;
		if (this.eventBytes > this.maxEventBytes) {
			throw new EventTooLargeException(this.maxEventBytes);
		}
		switch (field) {
			case "data" -> {
				if (this.dataLines == 0) {
					this.firstData = value;
				}
				else {
					if (this.dataLines == 1) {
						this.data.append(this.firstData);
					}
					this.data.append('\n').append(value);
				}
				this.dataLines++;
				this.sawField = true;
			}
			case "event" -> {
				this.eventType = value;
				this.sawField = true;
			}
			case "id" -> {
				if (value.indexOf('\0') < 0) {
					this.idBuffer = value;
					this.eventSetId = true;
				}
				this.sawField = true;
			}
			case "retry" -> {
				if (!value.isEmpty() && value.chars().allMatch(Character::isDigit) && value.length() < 12) {
					this.retry = Long.parseLong(value);
				}
				this.sawField = true;
			}
			default -> {
				// Unknown fields are ignored by the standard.
			}
		}
	}

	private void noteId(@Nullable String id) {
		if (id == null || id.isEmpty()) {
			return;
		}
		if (this.dispatchedIds == null) {
			this.dispatchedIds = new HashSet<>();
		}
		if (this.dispatchedIds.contains(id)) {
			this.idsRepeat = true;
		}
		else if (this.dispatchedIds.size() < MAX_REMEMBERED_IDS) {
			this.dispatchedIds.add(id);
		}
	}

	/**
	 * The next line, without its end. A line that lies whole within the chunk read last (the
	 * usual case) becomes its text directly; only a line split across reads is gathered first.
	 */
	private @Nullable String readLine() throws IOException {
		this.lineLen = 0;
		while (true) {
			if (this.chunkPos == this.chunkLen) {
				this.chunkLen = this.in.read(this.chunk);
				this.chunkPos = 0;
				if (this.chunkLen <= 0) {
					this.chunkLen = 0;
					return null;
				}
			}
			if (this.lastWasCr) {
				this.lastWasCr = false;
				if (this.chunk[this.chunkPos] == '\n') {
					this.chunkPos++;
					continue;
				}
			}
			int from = this.chunkPos;
			int end = from;
			while (end < this.chunkLen && this.chunk[end] != '\n' && this.chunk[end] != '\r') {
				end++;
			}
			// One line may not exceed the bound either: a line never ends without a line break.
			if (this.lineLen + (end - from) > this.maxEventBytes) {
				throw new EventTooLargeException(this.maxEventBytes);
			}
			if (end == this.chunkLen) {
				append(from, end - from);
				this.chunkPos = end;
				continue;
			}
			this.lastWasCr = (this.chunk[end] == '\r');
			this.chunkPos = end + 1;
			if (this.lineLen == 0) {
				return new String(this.chunk, from, end - from, StandardCharsets.UTF_8);
			}
			append(from, end - from);
			return new String(this.line, 0, this.lineLen, StandardCharsets.UTF_8);
		}
	}

	private void append(int from, int length) {
		if (this.lineLen + length > this.line.length) {
			this.line = Arrays.copyOf(this.line, Math.max(this.line.length * 2, this.lineLen + length));
		}
		System.arraycopy(this.chunk, from, this.line, this.lineLen, length);
		this.lineLen += length;
	}

	/**
	 * An event exceeded the parser's bound.
	 */
	public static final class EventTooLargeException extends RuntimeException {

		EventTooLargeException(int max) {
			super("a server-sent event exceeded the limit of " + max + " bytes");
		}

	}

}
