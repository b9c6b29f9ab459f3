package dev.mcpx.sample.secure;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the secure upstream saw: for each tool call, the subject and the client of the token
 * it was made with (never the token itself), and how many tokens the authorization server
 * issued, and how many of them by token exchange.
 */
public class SecureCalls {

	/** The most recent calls kept: a demo needs the last few. */
	static final int KEPT = 100;

	private final Deque<Call> calls = new ArrayDeque<>();

	private final AtomicInteger sequence = new AtomicInteger();

	private final AtomicInteger tokensIssued = new AtomicInteger();

	private final AtomicInteger tokensExchanged = new AtomicInteger();

	synchronized void record(String tool, String subject, String clientId) {
		this.calls.addLast(new Call(this.sequence.incrementAndGet(), Instant.now(), tool, subject, clientId));
		while (this.calls.size() > KEPT) {
			this.calls.removeFirst();
		}
	}

	void tokenIssued() {
		this.tokensIssued.incrementAndGet();
	}

	void tokenExchanged() {
		this.tokensExchanged.incrementAndGet();
	}

	/**
	 * How many of the tokens issued were a user's token exchanged for one to the upstream
	 * (RFC 8693).
	 * @return the count
	 */
	public int tokensExchanged() {
		return this.tokensExchanged.get();
	}

	/**
	 * The calls, oldest first.
	 * @return the calls
	 */
	public synchronized List<Call> calls() {
		return List.copyOf(this.calls);
	}

	/**
	 * How many access tokens the authorization server issued.
	 * @return the count
	 */
	public int tokensIssued() {
		return this.tokensIssued.get();
	}

	/**
	 * One tool call as the server saw it.
	 *
	 * @param seq its number
	 * @param at when it arrived
	 * @param tool the tool
	 * @param subject the token's subject ({@code sub})
	 * @param clientId the client the token was issued to
	 */
	public record Call(int seq, Instant at, String tool, String subject, String clientId) {
	}

}
