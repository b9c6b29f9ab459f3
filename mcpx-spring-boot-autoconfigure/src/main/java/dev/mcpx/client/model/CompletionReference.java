package dev.mcpx.client.model;

/**
 * What a completion request completes an argument of (2025-11-25
 * server/utilities/completion §Reference Types): a prompt or a resource template.
 *
 * @param type {@code ref/prompt} or {@code ref/resource}
 * @param value the prompt name or the URI template
 */
public record CompletionReference(String type, String value) {

	/**
	 * A prompt, by name.
	 * @param name the prompt name
	 * @return the reference
	 */
	public static CompletionReference prompt(String name) {
		return new CompletionReference("ref/prompt", name);
	}

	/**
	 * A resource template, by its URI template.
	 * @param uriTemplate the URI template
	 * @return the reference
	 */
	public static CompletionReference resourceTemplate(String uriTemplate) {
		return new CompletionReference("ref/resource", uriTemplate);
	}

}
