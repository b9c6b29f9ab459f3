package dev.mcpx.autoconfigure.discovery;

/**
 * An instance of a discovered MCP service was left out of its upstream: its endpoint cannot
 * be made (no host, no port, an {@code mcp.path} that is not an absolute path, ...). The
 * upstream goes on over its other instances. Published as an application event once per
 * instance and problem, with a WARN; carries the registry's instance id and what is wrong,
 * no header value and no credential.
 *
 * @param upstream the upstream name, which is the service id
 * @param instanceId the instance's id in the registry
 * @param problem what is wrong with it
 */
public record McpInstanceSkippedEvent(String upstream, String instanceId, String problem) {
}
