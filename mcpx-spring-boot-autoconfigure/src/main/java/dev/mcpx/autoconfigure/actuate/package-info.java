/**
 * Actuator and Micrometer support: a health contributor per upstream, the {@code mcpx}
 * endpoint, and recovery metrics.
 */
@NullMarked
package dev.mcpx.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
