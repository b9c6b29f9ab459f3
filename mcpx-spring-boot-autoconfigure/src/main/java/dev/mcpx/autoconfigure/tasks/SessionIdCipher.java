package dev.mcpx.autoconfigure.tasks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.jspecify.annotations.Nullable;

import dev.mcpx.autoconfigure.InvalidMcpxPropertyException;

/**
 * The session id a legacy task is bound to, as the JDBC journal keeps it: in clear without a key, or AES-GCM with
 * {@code mcpx.tasks.jdbc.encryption-key} (docs/security.md, "The task journal"). An encrypted value is
 * {@code aesgcm1:} and the base64 of a fresh 96-bit nonce followed by the ciphertext and its 128-bit tag; the row's
 * upstream and task id are its associated data, so a value copied into another row does not decrypt.
 */
final class SessionIdCipher {

	static final String PROPERTY = "mcpx.tasks.jdbc.encryption-key";

	private static final String PREFIX = "aesgcm1:";

	/** The nonce length GCM is specified for (NIST SP 800-38D §5.2.1.1). */
	private static final int NONCE_BYTES = 12;

	private static final int TAG_BITS = 128;

	private static final SecureRandom RANDOM = new SecureRandom();

	private final @Nullable SecretKey key;

	private SessionIdCipher(@Nullable SecretKey key) {
		this.key = key;
	}

	/**
	 * The cipher for a configured key.
	 * @param base64Key the property's value, or null for none
	 * @return the cipher
	 * @throws InvalidMcpxPropertyException when the key is not base64 of 16, 24 or 32 bytes
	 */
	static SessionIdCipher of(@Nullable String base64Key) {
		if (base64Key == null || base64Key.isBlank()) {
			return new SessionIdCipher(null);
		}
		byte[] bytes;
		try {
			bytes = Base64.getDecoder().decode(base64Key.trim());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidMcpxPropertyException(PROPERTY, "not base64");
		}
		if (bytes.length != 16 && bytes.length != 24 && bytes.length != 32) {
			throw new InvalidMcpxPropertyException(PROPERTY,
					"an AES key is 16, 24 or 32 bytes (base64 of them), not " + bytes.length);
		}
		return new SessionIdCipher(new SecretKeySpec(bytes, "AES"));
	}

	boolean encrypts() {
		return this.key != null;
	}

	String seal(String sessionId, String upstream, String taskId) {
		SecretKey secret = this.key;
		if (secret == null) {
			return sessionId;
		}
		try {
			byte[] nonce = new byte[NONCE_BYTES];
			RANDOM.nextBytes(nonce);
			Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
			cipher.init(Cipher.ENCRYPT_MODE, secret, new GCMParameterSpec(TAG_BITS, nonce));
			cipher.updateAAD(associated(upstream, taskId));
			byte[] sealed = cipher.doFinal(sessionId.getBytes(StandardCharsets.UTF_8));
			byte[] out = Arrays.copyOf(nonce, NONCE_BYTES + sealed.length);
			System.arraycopy(sealed, 0, out, NONCE_BYTES, sealed.length);
			return PREFIX + Base64.getEncoder().encodeToString(out);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("AES-GCM is not available on this Java platform", ex);
		}
	}

	/**
	 * The session id of a stored value.
	 * @throws IllegalStateException naming the problem (never the value) when it cannot be opened
	 */
	String open(String stored, String upstream, String taskId) {
		if (!stored.startsWith(PREFIX)) {
			// written before a key was configured: read as it is, encrypted at its next write
			return stored;
		}
		SecretKey secret = this.key;
		if (secret == null) {
			throw new IllegalStateException("the session of the task is encrypted and " + PROPERTY + " is not set");
		}
		try {
			byte[] in = Base64.getDecoder().decode(stored.substring(PREFIX.length()));
			Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
			cipher.init(Cipher.DECRYPT_MODE, secret, new GCMParameterSpec(TAG_BITS, in, 0, NONCE_BYTES));
			cipher.updateAAD(associated(upstream, taskId));
			return new String(cipher.doFinal(in, NONCE_BYTES, in.length - NONCE_BYTES), StandardCharsets.UTF_8);
		}
		catch (GeneralSecurityException | IllegalArgumentException ex) {
			throw new IllegalStateException("the session of the task does not decrypt with " + PROPERTY
					+ " (another key, or the value was altered)");
		}
	}

	private static byte[] associated(String upstream, String taskId) {
		return (upstream + "\n" + taskId).getBytes(StandardCharsets.UTF_8);
	}

}
