package dev.mcpx.sample;

import java.util.ArrayList;
import java.util.List;

import dev.mcpx.client.model.ToolAnnotations;

/**
 * Puts a tool's annotations in plain words, for logs and the HTTP endpoints.
 */
public final class ToolBehaviour {

	private ToolBehaviour() {
	}

	/**
	 * Describes what a server says about a tool's behaviour.
	 * @param annotations the tool's annotations
	 * @return for example {@code read-only}, {@code idempotent, not destructive} or
	 * {@code destructive}
	 */
	public static String describe(ToolAnnotations annotations) {
		if (annotations.isReadOnly()) {
			return "read-only";
		}
		List<String> words = new ArrayList<>();
		if (annotations.isIdempotent()) {
			words.add("idempotent");
		}
		if (Boolean.TRUE.equals(annotations.destructiveHint())) {
			words.add("destructive");
		}
		else if (Boolean.FALSE.equals(annotations.destructiveHint())) {
			words.add("not destructive");
		}
		return words.isEmpty() ? "no behaviour hints" : String.join(", ", words);
	}

}
