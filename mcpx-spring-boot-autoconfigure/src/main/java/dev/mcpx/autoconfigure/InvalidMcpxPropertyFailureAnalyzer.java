package dev.mcpx.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a startup failure caused by an invalid {@code mcpx} property, naming the
 * property to change.
 */
class InvalidMcpxPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidMcpxPropertyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidMcpxPropertyException cause) {
		return new FailureAnalysis("The property '" + cause.property() + "' is invalid: " + cause.problem() + ".",
				"Update '" + cause.property() + "' in your application's configuration.", cause);
	}

}
