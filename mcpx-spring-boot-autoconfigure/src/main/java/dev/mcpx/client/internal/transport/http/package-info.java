/**
 * Internal: the Streamable HTTP transport (2025-11-25 basic/transports §Streamable HTTP;
 * 2026-07-28 transports/streamable-http): POST, GET and DELETE exchanges, event streams and
 * their resumption, bounded body reads, and the status codes that mean a refusal. Not API:
 * may change in any release.
 */
@NullMarked
package dev.mcpx.client.internal.transport.http;

import org.jspecify.annotations.NullMarked;
