package dev.mcpx.autoconfigure.ai;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.mcpx.autoconfigure.McpxProperties;
import dev.mcpx.autoconfigure.McpxProperties.SpringAi;
import dev.mcpx.autoconfigure.McpxProperties.SpringAi.Expose;
import dev.mcpx.client.model.Tool;
import dev.mcpx.client.model.ToolAnnotations;
import dev.mcpx.client.recovery.RecoveryPolicy;

/**
 * Which tools of one upstream a Spring AI model sees, and under which prefix: the upstream's
 * {@code spring-ai.*} settings merged with {@code mcpx.defaults.spring-ai.*}.
 *
 * @param prefix prepended to every tool name
 * @param expose which tools by their annotations
 * @param trustAnnotations whether the annotations may be believed at all
 * @param include globs of the tools offered; empty means every tool
 * @param exclude globs of the tools never offered
 */
record ToolExposure(String prefix, Expose expose, boolean trustAnnotations, List<Pattern> include,
		List<Pattern> exclude) {

	static ToolExposure of(McpxProperties properties, String upstream) {
		McpxProperties.Client client = properties.getClients().get(upstream);
		SpringAi defaults = properties.getDefaults().getSpringAi();
		SpringAi own = (client != null) ? client.getSpringAi() : new SpringAi();
		String prefix = pick(own.getToolPrefix(), defaults.getToolPrefix(), "");
		Expose expose = pick(own.getExpose(), defaults.getExpose(), Expose.ALL);
		Boolean ownTrust = (client != null) ? client.getRecovery().getTrustAnnotations() : null;
		boolean trust = pick(ownTrust, properties.getDefaults().getRecovery().getTrustAnnotations(),
				RecoveryPolicy.ofDefaults().trustAnnotations());
		List<String> include = own.getInclude().isEmpty() ? defaults.getInclude() : own.getInclude();
		List<String> exclude = new ArrayList<>(defaults.getExclude());
		exclude.addAll(own.getExclude());
		return new ToolExposure(prefix, expose, trust, globs(include), globs(exclude));
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

	private static <T> T pick(@Nullable T own, @Nullable T fallback, T builtIn) {
		return (own != null) ? own : (fallback != null) ? fallback : builtIn;
	}

}
