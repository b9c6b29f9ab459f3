/**
 * The recovery SPI: the immutable {@link dev.mcpx.client.recovery.RecoveryPolicy} and the
 * {@link dev.mcpx.client.recovery.ReplayGate} asked before any request is sent a second time,
 * with its default ladder of guards. An application replaces or configures these; the
 * mechanism that applies them lives in {@code dev.mcpx.client.internal.recovery}.
 */
@NullMarked
package dev.mcpx.client.recovery;

import org.jspecify.annotations.NullMarked;
