// Modern-era (2026-07-28) stdio MCP test peer for the mcpx Java tests, on the TypeScript SDK
// v2 `serveStdio` (@modelcontextprotocol/server/stdio), which also serves 2025-era openings.
//
//   node modern-stdio-server.mjs
//
// env MCPX_STDIO_LOG=<file>: each start and tool execution is appended to that file, one JSON
// object per line with the pid (the same format as stdio-server.mjs).
//
// env MCPX_STDIO_STDIN=<file>: every byte the client writes to stdin is appended to that file.
//
// Tools: read_value (readOnlyHint), slow_read (readOnlyHint, waits <ms>), add_item (no hints),
// crash (exits mid-call with code 3).
import { appendFileSync } from 'node:fs';

import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const LOG = process.env.MCPX_STDIO_LOG;

function record(entry) {
	if (LOG) {
		appendFileSync(LOG, JSON.stringify({ ...entry, pid: process.pid, at: Date.now() }) + '\n');
	}
}

record({ type: 'start', argv: process.argv.slice(2) });
if (process.env.MCPX_STDIO_STDIN) {
	process.stdin.on('data', (chunk) => appendFileSync(process.env.MCPX_STDIO_STDIN, chunk));
}
const text = (value) => ({ content: [{ type: 'text', text: value }] });

serveStdio(() => {
	const server = new McpServer({ name: 'mcpx-modern-stdio-peer', version: '1.0.0' }, { capabilities: { tools: {} } });
	server.registerTool('read_value', {
		description: 'reads a value', inputSchema: z.object({ key: z.string() }),
		annotations: { readOnlyHint: true },
	}, async ({ key }) => { record({ type: 'execution', tool: 'read_value', args: { key } }); return text(`value ${key}`); });
	server.registerTool('slow_read', {
		description: 'reads slowly', inputSchema: z.object({ key: z.string(), ms: z.number() }),
		annotations: { readOnlyHint: true },
	}, async ({ key, ms }) => { await new Promise((resolve) => setTimeout(resolve, ms)); return text(`value ${key}`); });
	server.registerTool('add_item', {
		description: 'adds an item', inputSchema: z.object({ item: z.string() }),
		annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true },
	}, async ({ item }) => { record({ type: 'execution', tool: 'add_item', args: { item } }); return text(`added ${item}`); });
	server.registerTool('crash', {
		description: 'exits mid-call', inputSchema: z.object({ item: z.string() }),
		annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true },
	}, async ({ item }) => { record({ type: 'execution', tool: 'crash', args: { item } }); process.exit(3); });
	return server;
});
process.stdin.on('end', () => process.exit(0));
