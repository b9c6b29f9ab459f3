package dev.mcpx.autoconfigure;

import java.util.Map;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;

/**
 * Registers one {@link McpClient} bean per upstream under {@code mcpx.clients}, named and
 * qualified by the upstream name, each a view of the {@link McpClients} bean (which owns
 * the clients' lifecycle).
 */
class McpClientBeanRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware {

	/** Each upstream's properties as a plain map, under the name the map binder gives it. */
	private static final Bindable<Map<String, Map<String, Object>>> UPSTREAM_NAMES = Bindable
		.of(ResolvableType.forClassWithGenerics(Map.class, ResolvableType.forClass(String.class),
				ResolvableType.forClassWithGenerics(Map.class, String.class, Object.class)));

	private Environment environment;

	private BeanFactory beanFactory;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		// Only the names are needed here: bound as plain maps, with the map binder's own keys
		// (the same as for McpxProperties), not as settings objects, whose binding (nested
		// properties, conversions) made most of the start-up cost of many upstreams, twice.
		// McpxProperties binds and validates the settings.
		Map<String, Map<String, Object>> upstreams = Binder.get(this.environment)
			.bind("mcpx.clients", UPSTREAM_NAMES)
			.orElse(Map.of());
		for (String name : upstreams.keySet()) {
			if (registry.containsBeanDefinition(name)) {
				continue; // the application defined a bean of that name itself: it wins
			}
			BeanFactory factory = this.beanFactory;
			RootBeanDefinition definition = new RootBeanDefinition(McpClient.class,
					() -> factory.getBean(McpClients.class).get(name));
			definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, name));
			// McpClients closes the clients; the per-upstream bean is only a view, made when
			// something asks for it: McpClients builds every client at startup all the same.
			definition.setDestroyMethodName(null);
			definition.setLazyInit(true);
			registry.registerBeanDefinition(name, definition);
		}
	}

}
