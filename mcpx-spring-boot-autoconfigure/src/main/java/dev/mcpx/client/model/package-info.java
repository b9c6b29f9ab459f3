/**
 * What the protocol describes, as immutable values: tools and their annotations, prompts,
 * resources, results, the protocol era. The bottom layer of the public API: it imports no
 * other package of the client.
 */
@NullMarked
package dev.mcpx.client.model;

import org.jspecify.annotations.NullMarked;
