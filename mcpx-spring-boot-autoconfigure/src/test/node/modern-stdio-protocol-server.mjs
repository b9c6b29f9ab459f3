// Modern-era (2026-07-28) stdio MCP test peer for resource subscriptions on subscriptions/listen,
// on the TypeScript SDK v2 `serveStdio`, whose listen router delivers the resource updates a
// server sends to the subscriptions whose filter names the resource.
//
//   node modern-stdio-protocol-server.mjs
//
// env MCPX_STDIO_LOG=<file>: each start and tool execution is appended, one JSON object per line
// with the pid (the format of stdio-server.mjs). env MCPX_STDIO_STDIN=<file>: every byte the
// client writes to stdin is appended to that file.
//
// Tools: touch (announces that demo://counter changed), crash (exits mid-call with code 3).
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
	const server = new McpServer({ name: 'mcpx-modern-stdio-protocol-peer', version: '1.0.0' },
		{ capabilities: { tools: {}, resources: { subscribe: true } } });
	server.registerResource('counter', 'demo://counter', { mimeType: 'text/plain' },
		async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'counter' }] }));
	server.registerTool('touch', { description: 'announces that demo://counter changed', inputSchema: z.object({}) },
		async () => {
			record({ type: 'execution', tool: 'touch', args: {} });
			await server.server.sendResourceUpdated({ uri: 'demo://counter' });
			return text('touched');
		});
	server.registerTool('crash', {
		description: 'exits mid-call', inputSchema: z.object({}),
		annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true },
	}, async () => { record({ type: 'execution', tool: 'crash', args: {} }); process.exit(3); });
	return server;
});
process.stdin.on('end', () => process.exit(0));
