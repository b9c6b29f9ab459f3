package dev.mcpx.autoconfigure.ai;

import java.util.List;
import java.util.regex.Pattern;

import dev.mcpx.autoconfigure.McpUpstreamSettings;
import dev.mcpx.autoconfigure.McpxProperties.SpringAi.Expose;
import dev.mcpx.client.model.Tool;
import dev.mcpx.client.model.ToolAnnotations;

/**
 * Which tools of one upstream a Spring AI model sees, and under which prefix: its resolved
 * {@link McpUpstreamSettings#springAi() spring-ai settings}, with the globs compiled.
 *
 * @param prefix prepended to every tool name
 * @param expose which tools by their annotations
 * @param trustAnnotations whether the annotations may be believed at all
 * @param include globs of the tools offered; empty means every tool
 * @param exclude globs of the tools never offered
 */
record ToolExposure(String prefix, Expose expose, boolean trustAnnotations, List<Pattern> include,
		List<Pattern> exclude) {

	/**
	 * The exposure of one upstream's tools, by its resolved settings.
	 * @param settings the upstream's settings
	 * @return the exposure
	 */
	static ToolExposure of(McpUpstreamSettings settings) {
		McpUpstreamSettings.SpringAi springAi = settings.springAi();
		return new ToolExposure(springAi.toolPrefix(), springAi.expose(), settings.recoveryPolicy().trustAnnotations(),
				globs(springAi.include()), globs(springAi.exclude()));
	}

	/**
	 * Whether the model sees the tool, by these settings (a {@link McpToolFilter} may still
	 * leave it out).
	 */
	boolean offers(Tool tool) {
		if (!this.include.isEmpty() && this.include.stream().noneMatch((glob) -> glob.matcher(tool.name()).matches())) {
			return false;
		}
		if (this.exclude.stream().anyMatch((glob) -> glob.matcher(tool.name()).matches())) {
			return false;
		}
		return switch (this.expose) {
			case ALL -> true;
			// Untrusted hints prove nothing, so no tool can be shown to be safe.
			case READ_ONLY -> this.trustAnnotations && tool.annotations().isReadOnly();
			case NON_DESTRUCTIVE -> this.trustAnnotations && isNonDestructive(tool.annotations());
		};
	}

	/**
	 * destructiveHint defaults to true and is meaningful only when readOnlyHint is false
	 * (2025-11-25 schema, ToolAnnotations): a read-only tool, or one that says
	 * destructiveHint: false.
	 */
	private static boolean isNonDestructive(ToolAnnotations annotations) {
		return annotations.isReadOnly() || Boolean.FALSE.equals(annotations.destructiveHint());
	}

	private static List<Pattern> globs(List<String> globs) {
		return globs.stream().filter((glob) -> glob != null && !glob.isBlank()).map(ToolExposure::glob).toList();
	}

	private static Pattern glob(String glob) {
		StringBuilder regex = new StringBuilder();
		for (String part : glob.trim().split("((?<=[*?])|(?=[*?]))")) {
			switch (part) {
				case "*" -> regex.append(".*");
				case "?" -> regex.append('.');
				default -> regex.append(Pattern.quote(part));
			}
		}
		return Pattern.compile(regex.toString());
	}

}
