// stdio MCP test peer for the mcpx Java tests, on the TypeScript SDK v1 StdioServerTransport
// (legacy era, 2025-11-25).
//
//   node stdio-server.mjs [--banner] [--exit-at-once] [--never-answer] [--huge-line <MB>]
//
// env MCPX_STDIO_LOG=<file>: each start ({"type":"start"}) and each tool execution
// ({"type":"execution","tool":..,"args":..}) is appended to that file, one JSON object per
// line, with the pid, so the test counts starts and executions across processes.
// env MCPX_STDIO_STDIN=<file>: every byte the client writes to stdin is appended to that file.
// env MCPX_STDIO_DISCOVER=<line>: server/discover is answered with that raw line instead of the
// SDK's own answer ("ID" in it becomes the request's id; "silent" answers nothing), and each
// request or notification received is logged ({"type":"received","method":..}).
//
// Tools:
//   read_value    readOnlyHint      returns "value <key>"
//   set_value     idempotentHint    returns "set <key>"
//   add_item      (no hints)        a destructive call: returns "added <item>"
//   slow_read     readOnlyHint      waits <ms> then returns
//   slow_add      (no hints)        waits <ms> then returns
//   crash         (no hints)        logs its execution, then process.exit(3) mid-call
//   crash_read    readOnlyHint      logs its execution, exits once per log file marker, else returns
//   env           readOnlyHint      returns the environment variable named by <name>
//   stderr        readOnlyHint      writes <lines> lines to stderr, returns
//   huge          readOnlyHint      answers with a line of <mb> megabytes (over any sane limit)
//   notify        readOnlyHint      sends notifications/tools/list_changed, then returns
//
// Options:
//   --banner         prints a non-JSON banner line on stdout before serving (a bad server)
//   --exit-at-once   logs the start, then exits with code 1 (a crash loop)
//   --never-answer   reads stdin but never answers (a hung server)
//   --stray-lines    prints a non-JSON line on stdout before every response
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const LOG = process.env.MCPX_STDIO_LOG;
const args = new Set(process.argv.slice(2));

function record(entry) {
	if (LOG) {
		appendFileSync(LOG, JSON.stringify({ ...entry, pid: process.pid, at: Date.now() }) + '\n');
	}
}

record({ type: 'start', argv: process.argv.slice(2) });
if (process.env.MCPX_STDIO_STDIN) {
	process.stdin.on('data', (chunk) => appendFileSync(process.env.MCPX_STDIO_STDIN, chunk));
}
process.stderr.write(`stdio-server ${process.pid} starting\n`);

if (args.has('--exit-at-once')) {
	process.exit(1);
}
if (args.has('--never-answer')) {
	process.stdin.on('data', () => {});
	process.stdin.on('end', () => process.exit(0));
} else {
	if (args.has('--banner')) {
		process.stdout.write('Welcome to the stdio test server! (this line is not JSON-RPC)\n');
	}
	const server = new McpServer({ name: 'mcpx-stdio-peer', version: '1.0.0' });
	const text = (value) => ({ content: [{ type: 'text', text: value }] });
	const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

	server.registerTool('read_value', {
		description: 'reads a value', inputSchema: { key: z.string() },
		annotations: { readOnlyHint: true },
	}, async ({ key }) => { record({ type: 'execution', tool: 'read_value', args: { key } }); return text(`value ${key}`); });

	server.registerTool('set_value', {
		description: 'sets a value', inputSchema: { key: z.string() },
		annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false },
	}, async ({ key }) => { record({ type: 'execution', tool: 'set_value', args: { key } }); return text(`set ${key}`); });

	server.registerTool('add_item', {
		description: 'adds an item', inputSchema: { item: z.string() },
		annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true },
	}, async ({ item }) => { record({ type: 'execution', tool: 'add_item', args: { item } }); return text(`added ${item}`); });

	server.registerTool('slow_read', {
		description: 'reads slowly', inputSchema: { key: z.string(), ms: z.number() },
		annotations: { readOnlyHint: true },
	}, async ({ key, ms }) => { record({ type: 'execution', tool: 'slow_read', args: { key } }); await sleep(ms); return text(`value ${key}`); });

	server.registerTool('slow_add', {
		description: 'adds slowly', inputSchema: { item: z.string(), ms: z.number() },
		annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true },
	}, async ({ item, ms }) => { record({ type: 'execution', tool: 'slow_add', args: { item } }); await sleep(ms); return text(`added ${item}`); });

	server.registerTool('crash', {
		description: 'exits mid-call', inputSchema: { item: z.string() },
		annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true },
	}, async ({ item }) => { record({ type: 'execution', tool: 'crash', args: { item } }); process.exit(3); });

	server.registerTool('crash_read', {
		description: 'exits mid-call the first time it runs for a marker file', inputSchema: { marker: z.string() },
		annotations: { readOnlyHint: true },
	}, async ({ marker }) => {
		record({ type: 'execution', tool: 'crash_read', args: { marker } });
		if (!existsSync(marker)) {
			writeFileSync(marker, 'crashed');
			process.exit(3);
		}
		return text('read after crash');
	});

	server.registerTool('env', {
		description: 'returns an environment variable', inputSchema: { name: z.string() },
		annotations: { readOnlyHint: true },
	}, async ({ name }) => text(process.env[name] ?? '<unset>'));

	server.registerTool('stderr', {
		description: 'writes lines to stderr', inputSchema: { lines: z.number(), text: z.string() },
		annotations: { readOnlyHint: true },
	}, async ({ lines, text: line }) => { for (let i = 0; i < lines; i++) process.stderr.write(`${line} ${i}\n`); return text('written'); });

	server.registerTool('huge', {
		description: 'answers with a huge line', inputSchema: { mb: z.number() },
		annotations: { readOnlyHint: true },
	}, async ({ mb }) => {
		record({ type: 'execution', tool: 'huge', args: { mb } });
		// Written straight to stdout, without a newline for a while: one line of mb megabytes.
		const chunk = 'x'.repeat(1024 * 1024);
		process.stdout.write('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"');
		for (let i = 0; i < mb; i++) {
			if (!process.stdout.write(chunk)) {
				await new Promise((resolve) => process.stdout.once('drain', resolve));
			}
		}
		process.stdout.write('"}}\n');
		return text('huge written');
	});

	server.registerTool('notify', {
		description: 'announces a tool list change', inputSchema: {},
		annotations: { readOnlyHint: true },
	}, async () => { server.sendToolListChanged(); return text('notified'); });

	const transport = new StdioServerTransport();
	if (args.has('--stray-lines')) {
		const send = transport.send.bind(transport);
		transport.send = (message) => { process.stdout.write('stray log line\n'); return send(message); };
	}
	process.stdin.on('end', () => process.exit(0));
	await server.connect(transport);
	const discover = process.env.MCPX_STDIO_DISCOVER;
	if (discover !== undefined) {
		const handle = transport.onmessage;
		transport.onmessage = (message, extra) => {
			if (message.method) {
				record({ type: 'received', method: message.method });
			}
			if (message.method !== 'server/discover') {
				handle(message, extra);
			} else if (discover !== 'silent') {
				process.stdout.write(discover.replaceAll('"ID"', JSON.stringify(message.id)) + '\n');
			}
		};
	}
}
