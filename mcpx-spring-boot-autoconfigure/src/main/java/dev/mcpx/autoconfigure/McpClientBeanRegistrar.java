package dev.mcpx.autoconfigure;

import java.util.LinkedHashSet;
import java.util.Set;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
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
class McpClientBeanRegistrar implements ImportBeanDefinitionRegistrar {

	private static final ConfigurationPropertyName CLIENTS = ConfigurationPropertyName.of("mcpx.clients");

	private final Environment environment;

	private final BeanFactory beanFactory;

	/** Spring hands an {@code @Import}ed registrar these through its constructor. */
	McpClientBeanRegistrar(Environment environment, BeanFactory beanFactory) {
		this.environment = environment;
		this.beanFactory = beanFactory;
	}

	@Override
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		for (String name : upstreamNames(this.environment)) {
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

	/**
	 * The names of the upstreams, as the binder keys {@code mcpx.clients} of McpxProperties:
	 * the element after {@code mcpx.clients} of every setting under it, as written
	 * ({@code [eu.weather]} gives {@code eu.weather}), from every source that lists its
	 * names, in order. Only the names are needed here; McpxProperties binds and validates
	 * the settings. Binding the upstreams, even as plain maps, scanned every property name
	 * of every source once per upstream.
	 * @param environment the environment
	 * @return the upstream names
	 */
	static Set<String> upstreamNames(Environment environment) {
		Set<String> names = new LinkedHashSet<>();
		int index = CLIENTS.getNumberOfElements();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				// names with a setting under them, as the binder's upstreams have
				iterable.filter((name) -> CLIENTS.isAncestorOf(name) && name.getNumberOfElements() > index + 1)
					.forEach((name) -> names.add(name.getElement(index, Form.ORIGINAL)));
			}
		}
		return names;
	}

}
