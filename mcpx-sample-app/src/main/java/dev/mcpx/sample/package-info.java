/**
 * A runnable application that uses mcpx against an embedded demo upstream.
 */
@NullMarked
package dev.mcpx.sample;

import org.jspecify.annotations.NullMarked;
