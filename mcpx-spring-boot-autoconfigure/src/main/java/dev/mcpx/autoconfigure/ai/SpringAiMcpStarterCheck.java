package dev.mcpx.autoconfigure.ai;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.util.ClassUtils;

/**
 * Warns when Spring AI's own MCP client starter offers MCP tools too: a model given both
 * providers would see every tool twice. Spring AI's provider beans are found by class name,
 * so mcpx does not depend on its MCP module.
 */
final class SpringAiMcpStarterCheck implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(SpringAiMcpStarterCheck.class);

	/** The providers Spring AI's MCP client starter registers (McpToolCallbackAutoConfiguration). */
	static final List<String> SPRING_AI_PROVIDERS = List.of("org.springframework.ai.mcp.SyncMcpToolCallbackProvider",
			"org.springframework.ai.mcp.AsyncMcpToolCallbackProvider");

	private final ListableBeanFactory beanFactory;

	SpringAiMcpStarterCheck(ListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		List<String> beans = springAiProviderBeans();
		if (!beans.isEmpty()) {
			logger.warn("Spring AI's MCP client starter also offers MCP tools to the model (bean " + beans
					+ "), next to mcpx's: a model given both sees its tools twice, and Spring AI's callbacks do not "
					+ "recover from upstream restarts. Move its connections to mcpx.clients.<name>.url and set "
					+ "spring.ai.mcp.client.enabled=false (or only spring.ai.mcp.client.toolcallback.enabled=false), "
					+ "or set mcpx.spring-ai.enabled=false to keep Spring AI's");
		}
	}

	List<String> springAiProviderBeans() {
		List<String> beans = new ArrayList<>();
		ClassLoader classLoader = getClass().getClassLoader();
		for (String type : SPRING_AI_PROVIDERS) {
			if (ClassUtils.isPresent(type, classLoader)) {
				beans.addAll(List.of(this.beanFactory.getBeanNamesForType(ClassUtils.resolveClassName(type, classLoader),
						true, false)));
			}
		}
		return beans;
	}

}
