/**
 * Internal: the stdio transport (2025-11-25 basic/transports §stdio; 2026-07-28
 * basic/transports/stdio): a supervised child process, its standard streams as one channel of
 * newline-delimited JSON-RPC messages, its stderr as a log, its exit, its restart budget and
 * its shutdown. Knows no MCP method. Not API: may change in any release.
 */
@NullMarked
package dev.mcpx.client.internal.transport.stdio;

import org.jspecify.annotations.NullMarked;
