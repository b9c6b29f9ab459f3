/**
 * Upstreams from a service registry: every MCP service Spring Cloud Commons'
 * {@code DiscoveryClient} lists becomes one upstream over its live instances (see
 * {@code docs/architecture.md}, "Replicated upstreams").
 */
@NullMarked
package dev.mcpx.autoconfigure.discovery;

import org.jspecify.annotations.NullMarked;
