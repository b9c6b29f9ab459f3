/**
 * The sample's embedded demo upstream: an MCP server that can be restarted on demand.
 */
@NullMarked
package dev.mcpx.sample.demo;

import org.jspecify.annotations.NullMarked;
