package dev.mcpx.client.internal.transport.http;

import java.io.ByteArrayInputStream;

import org.jspecify.annotations.Nullable;

/**
 * A response body received whole before {@code send} returned ({@link JdkHttp#body}): its
 * bytes can be taken as they are, rather than copied out of a stream.
 */
final class WholeBody extends ByteArrayInputStream {

	WholeBody(byte[] bytes) {
		super(bytes);
	}

	/**
	 * Takes every byte of the body if none was read yet and it has the expected length: the
	 * stream is at its end afterwards.
	 * @param length the declared length
	 * @return the body's bytes, or {@code null} (the stream untouched) when part of it was
	 * already read or its length is another
	 */
	synchronized byte @Nullable [] takeAll(long length) {
		if (this.pos != 0 || this.count != this.buf.length || this.count != length) {
			return null;
		}
		this.pos = this.count;
		return this.buf;
	}

}
