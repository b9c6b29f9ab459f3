package dev.mcpx.client.internal.transport.http;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * Cuts a response body: ends a blocked read at once and gives up its connection. A plain
 * {@code close()} does that on the JDK client. Apache HttpClient 5's body stream instead
 * reads the rest of the body on {@code close()} to keep the connection, which hangs on an
 * event stream that never ends or a server that stalled; its {@code abort()} drops the
 * connection. The class is looked up by name: the client core does not depend on it.
 */
final class BodyCut {

	/** Apache HttpClient 5's body stream, whose close drains and whose abort cuts. */
	private static final String DRAINING_STREAM = "org.apache.hc.core5.http.io.EofSensorInputStream";

	/**
	 * The abort method of each body class, or none: looked up once per class, since a cut is
	 * armed on every exchange.
	 */
	private static final ClassValue<Optional<Method>> ABORT = new ClassValue<>() {

		@Override
		protected Optional<Method> computeValue(Class<?> bodyType) {
			return Optional.ofNullable(abortMethod(bodyType));
		}

	};

	private BodyCut() {
	}

	/**
	 * What cuts this body.
	 * @param body the body stream
	 * @return a closeable that aborts it, or closes it where closing already cuts
	 */
	static Closeable of(InputStream body) {
		Method abort = ABORT.get(body.getClass()).orElse(null);
		if (abort == null) {
			return body;
		}
		return () -> {
			try {
				abort.invoke(body);
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				// Not abortable after all: closing is what is left.
				body.close();
			}
		};
	}

	/**
	 * Cuts a body whose reading failed: closing the response instead would drain the rest
	 * of it first, which may never end (an oversized or endless body).
	 * @param body the body stream
	 */
	static void abortQuietly(InputStream body) {
		try {
			of(body).close();
		}
		catch (IOException ex) {
			// Aborting is all that was wanted.
		}
	}

	private static @Nullable Method abortMethod(Class<?> bodyType) {
		for (Class<?> type = bodyType; type != null; type = type.getSuperclass()) {
			if (DRAINING_STREAM.equals(type.getName())) {
				try {
					return type.getMethod("abort");
				}
				catch (NoSuchMethodException ex) {
					return null;
				}
			}
		}
		return null;
	}

}
