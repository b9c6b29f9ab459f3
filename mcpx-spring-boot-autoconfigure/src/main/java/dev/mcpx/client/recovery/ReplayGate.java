package dev.mcpx.client.recovery;

/**
 * The one decision asked before any request is sent a second time (docs/architecture.md, "The replay gate"). An
 * application may supply its own; requests that name state of an expired session are
 * never replayed, whatever the gate says.
 */
@FunctionalInterface
public interface ReplayGate {

	/**
	 * Decides whether the request may be sent again.
	 * @param context what is known about the request and why its first attempt failed
	 * @return the decision and its reason
	 */
	ReplayDecision decide(ReplayContext context);

}
