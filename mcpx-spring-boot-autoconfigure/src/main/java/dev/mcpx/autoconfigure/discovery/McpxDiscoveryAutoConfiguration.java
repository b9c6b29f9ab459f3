package dev.mcpx.autoconfigure.discovery;

import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindResult;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.client.loadbalancer.LoadBalancerClient;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import dev.mcpx.autoconfigure.McpClientConfigurer;
import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.autoconfigure.McpxUpstreams;
import dev.mcpx.client.McpClients;

/**
 * Upstreams from the service registry, with {@code mcpx.discovery.enabled=true} and Spring
 * Cloud Commons' {@link DiscoveryClient} (a Eureka, Consul, Kubernetes or Zookeeper client,
 * or the simple one of properties): one upstream per MCP service in {@link McpClients}, over
 * the service's live instances (see {@link McpxDiscovery}). With Spring Cloud LoadBalancer, a
 * modern request goes to the instance it chooses among the live ones.
 */
@AutoConfiguration(after = McpxAutoConfiguration.class,
		afterName = { "org.springframework.cloud.client.discovery.composite.CompositeDiscoveryClientAutoConfiguration",
				"org.springframework.cloud.client.discovery.simple.SimpleDiscoveryClientAutoConfiguration" })
@ConditionalOnClass(DiscoveryClient.class)
@ConditionalOnBooleanProperty("mcpx.discovery.enabled")
public final class McpxDiscoveryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	McpxDiscovery mcpxDiscovery(DiscoveryClient discoveryClient, McpxUpstreams upstreams,
			McpClientConfigurer configurer, McpClients clients, ObjectProvider<LoadBalancerClient> loadBalancer,
			ApplicationEventPublisher events, Environment environment) {
		LoadBalancerClient balancer = loadBalancer.getIfAvailable();
		McpxDiscovery discovery = new McpxDiscovery(discoveryClient, upstreams, (settings, service) -> {
			if (balancer != null) {
				service.chooseWith((serviceId) -> balancer.choose(serviceId));
			}
			return configurer.builder(settings, service).build();
		}, clients, events::publishEvent, (serviceId) -> oauthOf(Binder.get(environment), serviceId));
		// the services named are upstreams from the start; instances arrive with the registry's refreshes
		discovery.refresh();
		// a refresh of the configuration may name other services, or give them other settings
		upstreams.onRefresh(discovery::configurationRefreshed);
		return discovery;
	}

	/**
	 * The {@code oauth} section a discovered upstream's client is built with, as the OAuth
	 * customizer chooses it: its service's, else that of every discovered upstream, compared
	 * whole; one that cannot be bound is compared by its name, and refused by the customizer
	 * when the client is built.
	 */
	static Map<String, Object> oauthOf(Binder binder, String serviceId) {
		ConfigurationPropertyName services = ConfigurationPropertyName.of("mcpx.discovery.services");
		for (ConfigurationPropertyName prefix : List.of(services.append("[" + serviceId + "]").append("oauth"),
				ConfigurationPropertyName.of("mcpx.discovery.defaults.oauth"))) {
			try {
				BindResult<Map<String, Object>> section = binder.bind(prefix, Bindable.mapOf(String.class, Object.class));
				if (section.isBound()) {
					return Map.of(prefix.toString(), section.get());
				}
			}
			catch (BindException ex) {
				return Map.of("(unbindable)", ex.getName().toString());
			}
		}
		return Map.of();
	}

}
