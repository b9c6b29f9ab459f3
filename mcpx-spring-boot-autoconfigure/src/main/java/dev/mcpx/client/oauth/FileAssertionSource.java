package dev.mcpx.client.oauth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * An assertion kept in a file the platform rotates (a projected service account token): read
 * whole at every grant, surrounding whitespace removed. Its failures name the file, never
 * what it holds.
 */
final class FileAssertionSource implements McpAssertionSource {

	/** Far above any JWT a platform issues; a larger file is not a token and is not read. */
	static final long MAX_SIZE = 64 * 1024;

	private final Path path;

	FileAssertionSource(Path path) {
		this.path = Objects.requireNonNull(path, "path");
	}

	@Override
	public String assertion() {
		try {
			if (Files.size(this.path) > MAX_SIZE) {
				throw new IllegalStateException(
						"the file '" + this.path + "' is larger than " + MAX_SIZE + " bytes; it is not a token");
			}
			String value = Files.readString(this.path, StandardCharsets.UTF_8).strip();
			if (value.isEmpty()) {
				throw new IllegalStateException("the file '" + this.path + "' is empty");
			}
			return value;
		}
		catch (NoSuchFileException ex) {
			throw new IllegalStateException("the file '" + this.path + "' does not exist");
		}
		catch (IOException ex) {
			// the message of an I/O failure names the file and the reason, never its content
			throw new IllegalStateException("the file '" + this.path + "' cannot be read: " + ex, ex);
		}
	}

	@Override
	public String toString() {
		return "file '" + this.path + "'";
	}

}
