package dev.mcpx.autoconfigure.oauth;

import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.autoconfigure.McpxUpstreams;
import dev.mcpx.client.oauth.McpAssertionSource;
import dev.mcpx.client.oauth.McpAuthorizationHandler;
import dev.mcpx.client.oauth.McpClientRegistrationStore;

/**
 * MCP authorization for upstreams with {@code mcpx.clients.<name>.oauth.*} properties, when
 * Spring Security's OAuth2 client is on the classpath. An {@link McpAuthorizationHandler}
 * bean is the user's step of the authorization code flow (headless by default: it fails
 * naming the URL to open); a {@link McpClientRegistrationStore} bean keeps dynamically
 * registered clients (in memory by default); {@link McpAssertionSource} beans supply the
 * assertions of the jwt-bearer and enterprise-managed grants that are not read from a file.
 */
@AutoConfiguration(before = McpxAutoConfiguration.class)
@ConditionalOnClass({ ClientRegistration.class, AuthorizationServerMetadata.class })
public final class McpxOAuthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	McpClientRegistrationStore mcpClientRegistrationStore() {
		return McpClientRegistrationStore.inMemory();
	}

	@Bean
	@ConditionalOnMissingBean
	McpOAuthConfigurer mcpOAuthConfigurer(McpxUpstreams upstreams, Environment environment,
			ObjectProvider<McpAuthorizationHandler> handler, McpClientRegistrationStore store,
			ObjectProvider<ClientRegistrationRepository> registrations, ListableBeanFactory beans,
			ObjectProvider<OAuth2AuthorizedClientService> authorizedClients) {
		return new McpOAuthConfigurer(upstreams, environment, handler.getIfAvailable(McpAuthorizationHandler::headless),
				store, registrations.getIfAvailable(), beans.getBeansOfType(McpAssertionSource.class),
				authorizedClients.getIfAvailable());
	}

}
