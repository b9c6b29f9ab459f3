/**
 * Benchmarks of mcpx against the official SDK client, on fixed in-process upstreams.
 */
@NullMarked
package dev.mcpx.bench;

import org.jspecify.annotations.NullMarked;
