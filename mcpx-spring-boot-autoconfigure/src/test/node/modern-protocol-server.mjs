// Modern-era (2026-07-28) MCP test peer for the client protocol features of mcpx: input asked
// for in results (multi-round-trip), progress, cancellation by a closed stream, and resource
// updates on subscriptions/listen. Built on @modelcontextprotocol/server 2.x + @modelcontextprotocol/node.
//
//   node modern-protocol-server.mjs <port|0> [--ignore-stdin]
//
// Prints one `LISTENING <port>` line; binds 127.0.0.1; exits when stdin closes.
//
// Tools:
//   ask_name        answers input_required with an elicitation/create (form with defaults) until
//                   the retry carries the answer, which it records
//   report_progress {"steps": n, "intervalMs": ms} reports progress n times, ms apart, then answers
//   wait_for_cancel {"ms": ms} waits up to ms for the request to be cancelled, then answers
// Resource demo://counter changes on POST /admin/touch, announced to open listen streams.
//
// Admin endpoints: those of peer-common.mjs (counts, reset, ...), and
//   GET  /admin/protocol -> {"elicitations": [answers], "progressSent": n, "cancelled": n,
//                            "completed": {"<tool>": n}, "listens": [notification filters]}
//   POST /admin/touch    -> publishes notifications/resources/updated for demo://counter

import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { Counters, Cuts, log, messagesOf, parseArgs, readBody, sendJson, serveMcp, trackConnection }
	from './peer-common.mjs';

const { port, flags } = parseArgs();
const counters = new Counters();
const cuts = new Cuts(counters);
const COUNTER_URI = 'demo://counter';
let counterValue = 0;

const seen = { elicitations: [], progressSent: 0, cancelled: 0, completed: {}, listens: [] };

function resetSeen() {
	seen.elicitations = [];
	seen.progressSent = 0;
	seen.cancelled = 0;
	seen.completed = {};
	seen.listens = [];
}

function text(value) {
	return { content: [{ type: 'text', text: value }] };
}

function completed(tool) {
	seen.completed[tool] = (seen.completed[tool] ?? 0) + 1;
}

function delay(ms, signal) {
	return new Promise(resolve => {
		const timer = setTimeout(resolve, ms);
		signal?.addEventListener('abort', () => {
			clearTimeout(timer);
			resolve();
		}, { once: true });
	});
}

function buildServer() {
	const server = new McpServer({ name: 'mcpx-modern-protocol-peer', version: '1.0.0' },
		{ capabilities: { resources: { subscribe: true, listChanged: true } } });
	server.registerTool('ask_name', { description: 'Elicits a name', inputSchema: z.object({}) }, async (args, ctx) => {
		const answer = ctx.mcpReq.inputResponses?.name;
		if (answer === undefined) {
			return inputRequired({
				inputRequests: {
					name: inputRequired.elicit({
						message: 'Who are you?',
						requestedSchema: {
							type: 'object',
							properties: {
								name: { type: 'string', description: 'Your name', default: 'Ada' },
								age: { type: 'integer', description: 'Your age', default: 36 }
							}
						}
					})
				}
			});
		}
		counters.execution('ask_name', {});
		seen.elicitations.push(answer);
		completed('ask_name');
		return text(JSON.stringify(answer));
	});
	server.registerTool('report_progress',
		{ description: 'Reports progress, then answers', inputSchema: z.object({ steps: z.number(), intervalMs: z.number() }) },
		async ({ steps, intervalMs }, ctx) => {
			counters.execution('report_progress', { steps, intervalMs });
			const token = ctx.mcpReq._meta?.progressToken;
			for (let i = 1; i <= steps; i++) {
				await delay(intervalMs, ctx.mcpReq.signal);
				if (ctx.mcpReq.signal.aborted) {
					seen.cancelled++;
					return text('cancelled');
				}
				if (token !== undefined) {
					await ctx.mcpReq.notify({
						method: 'notifications/progress',
						params: { progressToken: token, progress: i, total: steps, message: `step ${i}` }
					});
					seen.progressSent++;
				}
			}
			completed('report_progress');
			return text(`done after ${steps} steps`);
		});
	server.registerTool('wait_for_cancel', { description: 'Waits to be cancelled', inputSchema: z.object({ ms: z.number() }) },
		async ({ ms }, ctx) => {
			counters.execution('wait_for_cancel', { ms });
			await delay(ms, ctx.mcpReq.signal);
			if (ctx.mcpReq.signal.aborted) {
				seen.cancelled++;
				return text('cancelled');
			}
			completed('wait_for_cancel');
			return text('not cancelled');
		});
	server.registerResource('counter', COUNTER_URI, { description: 'Changes on /admin/touch', mimeType: 'text/plain' },
		async uri => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: String(counterValue) }] }));
	return server;
}

const mcpHandler = createMcpHandler(() => buildServer(), {
	responseMode: 'sse',
	onerror: err => log('mcp handler error', err?.message ?? err)
});
const nodeHandler = toNodeHandler(mcpHandler, { onerror: err => log('node adapter error', err?.message ?? err) });

async function handleMcp(req, res) {
	trackConnection(req);
	if (req.method !== 'POST') {
		await nodeHandler(req, res);
		return;
	}
	let body;
	try {
		body = JSON.parse(await readBody(req));
	}
	catch {
		sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
		return;
	}
	const messages = messagesOf(body);
	messages.forEach(m => {
		counters.message(m);
		if (m?.method === 'subscriptions/listen') {
			seen.listens.push(m.params?.notifications ?? {});
		}
	});
	await nodeHandler(req, res, body);
}

serveMcp({
	port,
	flags,
	routes: {
		'GET /admin/protocol': (req, res) => sendJson(res, 200, seen),
		'POST /admin/touch': (req, res) => {
			counterValue++;
			mcpHandler.notify.resourceUpdated(COUNTER_URI);
			sendJson(res, 200, { ok: true });
		}
	},
	admin: { counters, cuts, counts: () => counters.snapshot(), reset: resetSeen },
	handleMcp
});
