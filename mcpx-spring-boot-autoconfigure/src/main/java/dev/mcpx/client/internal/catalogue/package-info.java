/**
 * Internal: what a client knows of its upstream's tools, prompts and resources: cached
 * listings with their freshness, and each tool's annotations and header declarations.
 * Not API: may change in any release.
 */
@NullMarked
package dev.mcpx.client.internal.catalogue;

import org.jspecify.annotations.NullMarked;
