package dev.mcpx.sample.demo;

import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Serves the {@link DemoUpstream} at {@value DemoUpstream#PATH} inside this application,
 * next to Spring MVC's dispatcher, so the sample needs no second process.
 */
@Configuration(proxyBeanMethods = false)
public class DemoUpstreamConfiguration {

	@Bean
	DemoTools demoTools() {
		return new DemoTools();
	}

	@Bean
	DemoUpstream demoUpstream(DemoTools demoTools) {
		return new DemoUpstream(demoTools);
	}

	@Bean
	ServletRegistrationBean<DemoUpstreamServlet> demoUpstreamServlet(DemoUpstream demoUpstream) {
		ServletRegistrationBean<DemoUpstreamServlet> registration = new ServletRegistrationBean<>(
				new DemoUpstreamServlet(demoUpstream), DemoUpstream.PATH);
		registration.setName("demoUpstream");
		// The SDK transport answers through the Servlet async API (startAsync).
		registration.setAsyncSupported(true);
		// Initialize at startup, so the upstream is up (and restartable) before any request.
		registration.setLoadOnStartup(1);
		return registration;
	}

}
