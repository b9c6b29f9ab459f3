// Modern-era (2026-07-28) MCP test peer for the mcpx Java tests.
//
//   node modern-server.mjs <port|0> [--json | --sse] [--modern-only] [--ignore-stdin]
//
// Streamable HTTP on http://127.0.0.1:<port>/mcp built on @modelcontextprotocol/server 2.x
// (createMcpHandler with a per-request server factory) and @modelcontextprotocol/node
// (toNodeHandler). Prints exactly one `LISTENING <port>` line on stdout once it accepts
// connections. Exits when stdin closes (unless --ignore-stdin) and on SIGTERM.
//
// The 2026-07-28 revision has no sessions, no GET stream and no resumability, so this peer has
// none either. Response shaping: default `auto` (application/json unless the handler emits a
// related message first), --sse always streams, --json never streams. 2025-era requests
// (no `_meta` envelope, e.g. `initialize`) are served by the SDK's stateless legacy fallback
// unless --modern-only is given (then they get the unsupported-protocol-version error).
//
// Admin endpoints (same port, JSON):
//   GET  /admin/counts  -> {"initialize": n, "requests": {"<method>": n}, "executions": {"<tool>": n},
//                           "ids": {"<tool>": [jsonrpc ids]}, "sessionsLive": 0, "deletes": n,
//                           "gets": n, "resumes": n, "notFound": 0, "cuts": n}
//   POST /admin/reset   -> zero all counters (and disarm cuts)
//   GET  /admin/executions -> {"executions": [{"tool": "<name>", "args": {...}}], "dropped": n}: every
//                        tool body that ran, with its arguments, oldest first (since start or reset)
//   GET  /admin/connections -> {"open": n}: connections that carried an /mcp request and are still open
//   env MCPX_PEER_EVENT_LOG=<file> -> executions and initialize requests are also appended to that
//                        file, one JSON object per line, surviving a restart of the process
//   POST /admin/cut     {"tool": "<name>", "times": n, "afterPriming": bool} -> the next n calls
//                        of the tool run their body, then the HTTP response is destroyed before
//                        the JSON-RPC response is written (see Cuts in peer-common.mjs)
//   POST /admin/forget, POST /admin/mode -> 501 (there are no sessions in this era)

import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

import {
	Counters,
	Cuts,
	log,
	messagesOf,
	parseArgs,
	readBody,
	sendJson,
	serveMcp,
	tagFrom,
	trackConnection
} from './peer-common.mjs';

const { port, flags } = parseArgs();
const responseMode = flags.has('--json') ? 'json' : flags.has('--sse') ? 'sse' : 'auto';

const counters = new Counters();
const cuts = new Cuts(counters);
const store = new Map();

function text(value) {
	return { content: [{ type: 'text', text: value }] };
}

/** Wraps a tool body: counts the execution, then applies an armed cut. */
function tool(name, body) {
	return async (args, ctx) => {
		counters.execution(name, args);
		try {
			return await body(args);
		}
		finally {
			await cuts.afterBody(tagFrom(ctx?.http?.req?.headers));
		}
	};
}

function buildServer() {
	const server = new McpServer({ name: 'mcpx-modern-peer', version: '1.0.0' });
	server.registerTool(
		'echo',
		{
			description: 'Echoes the text back',
			inputSchema: z.object({ text: z.string() }),
			annotations: { readOnlyHint: true }
		},
		tool('echo', async ({ text: value }) => text(value))
	);
	server.registerTool(
		'set_value',
		{
			description: 'Stores a value under a key',
			inputSchema: z.object({ key: z.string(), value: z.string() }),
			annotations: { idempotentHint: true, destructiveHint: false, readOnlyHint: false }
		},
		tool('set_value', async ({ key, value }) => {
			store.set(key, value);
			return text('ok');
		})
	);
	server.registerTool(
		'delete_item',
		{
			description: 'Deletes an item',
			inputSchema: z.object({ id: z.string() }),
			annotations: { destructiveHint: true, readOnlyHint: false, idempotentHint: false }
		},
		tool('delete_item', async ({ id }) => text(`deleted ${id}`))
	);
	server.registerTool(
		'slow',
		{
			description: 'Sleeps for ms milliseconds',
			inputSchema: z.object({ ms: z.number() })
		},
		tool('slow', async ({ ms }) => {
			await new Promise(resolve => setTimeout(resolve, ms));
			return text('slept');
		})
	);
	server.registerPrompt(
		'greeting',
		{
			description: 'Greets someone',
			argsSchema: z.object({ name: z.string() })
		},
		({ name }) => ({
			messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }]
		})
	);
	server.registerResource(
		'readme',
		'demo://readme',
		{ description: 'A demo resource', mimeType: 'text/plain' },
		async uri => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the mcpx modern test peer.' }] })
	);
	return server;
}

const mcpHandler = createMcpHandler(() => buildServer(), {
	responseMode,
	legacy: flags.has('--modern-only') ? 'reject' : 'stateless',
	onerror: err => log('mcp handler error', err?.message ?? err)
});
const nodeHandler = toNodeHandler(mcpHandler, { onerror: err => log('node adapter error', err?.message ?? err) });

/** What the SDK writes on a POST response before the result (see Cuts in peer-common.mjs). */
function aheadOfResult(messages) {
	const modern = messages.some(m => m?.params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined);
	if (!modern) {
		// the SDK's stateless legacy fallback answers with SSE, without an event store
		return 'headers';
	}
	return responseMode === 'sse' ? 'headers' : 'nothing';
}

async function handleMcp(req, res) {
	trackConnection(req);
	if (req.method === 'GET') {
		counters.gets++;
		if (req.headers['last-event-id']) {
			counters.resumes++;
		}
	}
	if (req.method === 'DELETE') {
		counters.deletes++;
	}
	if (req.method !== 'POST') {
		await nodeHandler(req, res);
		return;
	}
	const raw = await readBody(req);
	let body;
	try {
		body = JSON.parse(raw);
	}
	catch {
		sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null });
		return;
	}
	const messages = messagesOf(body);
	messages.forEach(m => counters.message(m));
	cuts.register(req, res, messages, aheadOfResult(messages));
	await nodeHandler(req, res, body);
}

serveMcp({
	port,
	flags,
	admin: { counters, cuts, counts: () => counters.snapshot({ sessionsLive: 0 }) },
	handleMcp
});
