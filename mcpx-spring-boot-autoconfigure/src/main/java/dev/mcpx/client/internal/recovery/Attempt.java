package dev.mcpx.client.internal.recovery;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.transport.Resumption;

/**
 * One attempt of a request, with what the attempts before it did: the small context every
 * follow-up decision reads. Immutable: the follow-up step returns the next attempt.
 *
 * @param request the request, or {@code null} for opening the session alone
 * @param on the state to send it on, or {@code null} to open the session first
 * @param resumeFrom where to resume the previous send's response stream, absent for a send
 * @param number 1 for the first attempt, one more for each follow-up
 * @param sends how many times the request was sent before this attempt
 * @param mayHaveExecuted how many of those sends may have run on the server (their failure
 * did not prove otherwise)
 * @param resumptions how often the current send's stream was resumed before this attempt
 * @param sendStartedNanos when the current send started, for what is left of its timeout
 * @param fired the rules that recovered this request so far
 */
public record Attempt(@Nullable McpRequest request, @Nullable SessionState on, @Nullable Resumption resumeFrom,
		int number, int sends, int mayHaveExecuted, int resumptions, long sendStartedNanos, Set<Rule> fired) {

	public Attempt {
		fired = Set.copyOf(fired);
	}

	/**
	 * The first attempt of a request.
	 * @param request the request, or {@code null} for opening the session alone
	 * @return the attempt, which opens the session first
	 */
	public static Attempt first(@Nullable McpRequest request) {
		return new Attempt(request, null, null, 1, 0, 0, 0, 0, Set.of());
	}

	/**
	 * This first attempt, made on a given state rather than the current one.
	 * @param state the state to send on
	 * @return the attempt
	 */
	Attempt on(SessionState state) {
		return new Attempt(this.request, state, this.resumeFrom, this.number, this.sends, this.mayHaveExecuted,
				this.resumptions, this.sendStartedNanos, this.fired);
	}

	/**
	 * Whether this attempt sends the request (rather than resuming a stream, or only
	 * opening the session).
	 * @return {@code true} for a send
	 */
	public boolean isSend() {
		return this.request != null && this.resumeFrom == null;
	}

	/**
	 * Whether a rule recovered this request already.
	 * @param rule the rule
	 * @return {@code true} once it fired
	 */
	public boolean hasFired(Rule rule) {
		return this.fired.contains(rule);
	}

	/**
	 * Whether any rule other than resuming a stream recovered this request already.
	 * @return {@code true} after a recovery
	 */
	public boolean recovered() {
		return this.fired.stream().anyMatch((rule) -> rule != Rule.STREAM_RESUMPTION);
	}

	/**
	 * Whether a rule recovered this request already, leaving out resumed streams and
	 * refreshed credentials. A refused credential proves its send never ran, and renewing
	 * it (an authorization flow) can take long enough for the server to close the idle
	 * connection the replay then meets; the replay's own failure still gets its one
	 * recovery.
	 * @return {@code true} after a recovery other than a credentials refresh
	 */
	public boolean recoveredBesidesCredentials() {
		return this.fired.stream()
			.anyMatch((rule) -> rule != Rule.STREAM_RESUMPTION && rule != Rule.REFUSED_CREDENTIALS
					&& rule != Rule.STEP_UP);
	}

	/**
	 * What is left of the current send's timeout.
	 * @param nowNanos the current {@code System.nanoTime()}
	 * @return the time left, zero or negative when spent
	 */
	public Duration remaining(long nowNanos) {
		Duration timeout = (this.request != null) ? this.request.timeout() : Duration.ZERO;
		return timeout.minusNanos(nowNanos - this.sendStartedNanos);
	}

	/**
	 * This attempt as it was made: on the state it ran on, started when it did.
	 * @param state the state it ran on
	 * @param startedNanos when it started
	 * @return the attempt as made
	 */
	Attempt madeOn(SessionState state, long startedNanos) {
		return new Attempt(this.request, state, this.resumeFrom, this.number, this.sends, this.mayHaveExecuted,
				this.resumptions, isSend() ? startedNanos : this.sendStartedNanos, this.fired);
	}

	/**
	 * The next attempt: the request sent again.
	 * @param state the state to send it on, or {@code null} to open the session first
	 * @param request the request to send (the same, or corrected)
	 * @param executed whether this attempt's send may have run
	 * @param rule the rule that decided it
	 * @return the next attempt
	 */
	Attempt resend(@Nullable SessionState state, McpRequest request, boolean executed, Rule rule) {
		return new Attempt(request, state, null, this.number + 1, sendsSoFar(), executedSoFar(executed), 0, 0,
				with(rule));
	}

	/**
	 * The next attempt: this send's stream read on from where it broke.
	 * @param from where it broke
	 * @return the next attempt
	 */
	Attempt resume(Resumption from) {
		return new Attempt(this.request, this.on, from, this.number + 1, this.sends, this.mayHaveExecuted,
				this.resumptions + 1, this.sendStartedNanos, with(Rule.STREAM_RESUMPTION));
	}

	/**
	 * The next attempt: the session opened again, then the request sent as first planned.
	 * @param rule the rule that decided it
	 * @return the next attempt
	 */
	Attempt reopen(Rule rule) {
		return new Attempt(this.request, null, null, this.number + 1, this.sends, this.mayHaveExecuted, 0, 0,
				with(rule));
	}

	/**
	 * How many sends may have run once this attempt failed.
	 * @param executed whether this attempt's send may have run
	 * @return the count
	 */
	int executedSoFar(boolean executed) {
		return this.mayHaveExecuted + ((executed && isSend()) ? 1 : 0);
	}

	private int sendsSoFar() {
		return this.sends + (isSend() ? 1 : 0);
	}

	private Set<Rule> with(Rule rule) {
		Set<Rule> rules = this.fired.isEmpty() ? EnumSet.noneOf(Rule.class) : EnumSet.copyOf(this.fired);
		rules.add(rule);
		return rules;
	}

}
