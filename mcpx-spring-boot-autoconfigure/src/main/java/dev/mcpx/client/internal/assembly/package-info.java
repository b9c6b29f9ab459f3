/**
 * Internal: how a client is put together. {@link dev.mcpx.client.internal.assembly.ClientSettings}
 * is what the builder settles; {@link dev.mcpx.client.internal.assembly.ClientAssembly} builds
 * every part from it, once and in order; {@link dev.mcpx.client.internal.assembly.ClientParts}
 * is what the client API holds. The layer just below the API (see {@code docs/architecture.md},
 * "Layers"). Not API: may change in any release.
 */
@NullMarked
package dev.mcpx.client.internal.assembly;

import org.jspecify.annotations.NullMarked;
