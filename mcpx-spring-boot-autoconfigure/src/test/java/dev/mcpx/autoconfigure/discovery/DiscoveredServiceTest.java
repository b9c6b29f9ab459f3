package dev.mcpx.autoconfigure.discovery;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;

import dev.mcpx.client.ProtocolMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a service's instances, as a discovery client lists them, make of its MCP endpoints.
 */
@ExtendWith(OutputCaptureExtension.class)
class DiscoveredServiceTest {

	@Test
	void anInstanceEndpointIsItsSchemeHostAndPortWithTheMcpPathOfItsMetadataOrSlashMcp() {
		DiscoveredService service = new DiscoveredService("weather");
		service.refresh(List.of(instance("a", "10.0.0.1", 8080, false, Map.of()),
				instance("b", "10.0.0.2", 8443, true, Map.of("mcp.path", "/tools/mcp"))));
		assertThat(service.live()).containsExactly(URI.create("http://10.0.0.1:8080/mcp"),
				URI.create("https://10.0.0.2:8443/tools/mcp"));
	}

	@Test
	void theEraIsWhatTheFirstInstanceThatDeclaresOneDeclares() {
		DiscoveredService service = new DiscoveredService("weather");
		service.refresh(List.of(instance("a", "10.0.0.1", 8080, false, Map.of()),
				instance("b", "10.0.0.2", 8080, false, Map.of("mcp.protocol", "Modern"))));
		assertThat(service.protocol()).isEqualTo(ProtocolMode.MODERN);
		service.refresh(List.of(instance("a", "10.0.0.1", 8080, false, Map.of("mcp.protocol", "nonsense"))));
		assertThat(service.protocol()).isNull();
	}

	@Test
	void anInstanceWhoseEndpointCannotBeMadeIsLeftOutWithOneWarningAndTheOthersStay(CapturedOutput output) {
		DiscoveredService service = new DiscoveredService("weather");
		List<ServiceInstance> instances = List.of(instance("good", "10.0.0.1", 8080, false, Map.of()),
				instance("relative", "10.0.0.2", 8080, false, Map.of("mcp.path", "mcp")));
		service.refresh(instances);
		service.refresh(instances);
		assertThat(service.live()).containsExactly(URI.create("http://10.0.0.1:8080/mcp"));
		assertThat(output).containsOnlyOnce("instance relative is left out: mcp.path 'mcp' is not an absolute path");
	}

	@Test
	void theSnapshotChangesOnlyWhenTheEndpointsDo() {
		DiscoveredService service = new DiscoveredService("weather");
		assertThat(service.refresh(List.of(instance("a", "10.0.0.1", 8080, false, Map.of())))).isTrue();
		List<URI> first = service.live();
		assertThat(service.refresh(List.of(instance("a", "10.0.0.1", 8080, false, Map.of())))).isFalse();
		assertThat(service.live()).isSameAs(first);
		assertThat(service.refresh(List.of())).isTrue();
		assertThat(service.live()).isEmpty();
	}

	@Test
	void aLoadBalancersChoiceCountsOnlyWhenItIsALiveCandidate() {
		DiscoveredService service = new DiscoveredService("weather");
		ServiceInstance a = instance("a", "10.0.0.1", 8080, false, Map.of());
		ServiceInstance gone = instance("gone", "10.0.0.9", 8080, false, Map.of());
		assertThat(service.choose(List.of(URI.create("http://10.0.0.1:8080/mcp")))).isNull();
		service.chooseWith((id) -> a);
		assertThat(service.choose(List.of(URI.create("http://10.0.0.2:8080/mcp"), URI.create("http://10.0.0.1:8080/mcp"))))
			.isEqualTo(URI.create("http://10.0.0.1:8080/mcp"));
		service.chooseWith((id) -> gone);
		assertThat(service.choose(List.of(URI.create("http://10.0.0.1:8080/mcp")))).isNull();
		service.chooseWith((id) -> null);
		assertThat(service.choose(List.of(URI.create("http://10.0.0.1:8080/mcp")))).isNull();
	}

	private static ServiceInstance instance(String id, String host, int port, boolean secure,
			Map<String, String> metadata) {
		return new DefaultServiceInstance(id, "weather", host, port, secure, metadata);
	}

}
