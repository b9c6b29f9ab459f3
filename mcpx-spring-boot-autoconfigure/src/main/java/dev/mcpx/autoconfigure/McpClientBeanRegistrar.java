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
		Map<String, McpxProperties.Client> upstreams = Binder.get(this.environment)
			.bind("mcpx.clients", Bindable.mapOf(String.class, McpxProperties.Client.class))
			.orElse(Map.of());
		for (String name : upstreams.keySet()) {
			if (registry.containsBeanDefinition(name)) {
				continue; // the application defined a bean of that name itself: it wins
			}
			BeanFactory factory = this.beanFactory;
			RootBeanDefinition definition = new RootBeanDefinition(McpClient.class,
					() -> factory.getBean(McpClients.class).get(name));
			definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, name));
			// McpClients closes the clients; the per-upstream bean is only a view.
			definition.setDestroyMethodName(null);
			registry.registerBeanDefinition(name, definition);
		}
	}

}
