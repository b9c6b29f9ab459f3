package dev.mcpx.autoconfigure.ai;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The Spring AI bridge as a whole; how each upstream's tools are offered is set per
 * upstream under {@code mcpx.clients.<name>.spring-ai}.
 */
@ConfigurationProperties("mcpx.spring-ai")
public class McpxSpringAiProperties {

	/**
	 * Whether every upstream's tools are offered to Spring AI as tool callbacks, when Spring
	 * AI is on the classpath.
	 */
	private boolean enabled = true;

	/**
	 * Whether asking for the tool callbacks fails while an upstream is unavailable, rather
	 * than leaving that upstream's tools out.
	 */
	private boolean failOnUnavailableUpstream = false;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public boolean isFailOnUnavailableUpstream() {
		return this.failOnUnavailableUpstream;
	}

	public void setFailOnUnavailableUpstream(boolean failOnUnavailableUpstream) {
		this.failOnUnavailableUpstream = failOnUnavailableUpstream;
	}

}
