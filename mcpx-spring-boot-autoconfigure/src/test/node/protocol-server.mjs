// Legacy-era MCP test peer for the client protocol features of mcpx (server requests,
// progress, cancellation, server logs, resource subscriptions, completion), on the
// TypeScript SDK v1 (@modelcontextprotocol/sdk), Streamable HTTP with sessions.
//
//   node protocol-server.mjs <port|0> [--ignore-stdin]
//
// Prints one `LISTENING <port>` line; binds 127.0.0.1; exits when stdin closes.
//
// Tools (each asks the client something, and records what it got):
//   ask_name        elicitation/create on the call's own response stream (form with defaults);
//                   {"via": "listen"} sends it on the GET stream instead (server.server.elicitInput)
//   ask_model       sampling/createMessage on the call's response stream
//   ask_roots       roots/list on the call's response stream
//   report_progress {"steps": n, "intervalMs": ms} reports progress n times, ms apart, then answers
//   wait_for_cancel {"ms": ms} waits up to ms for notifications/cancelled, then answers
//   log_messages    sends notifications/message at each level, on the GET stream of the session
// Resource demo://counter is subscribable; POST /admin/touch announces it changed to every
// session subscribed to it. Prompt "greet" and template demo://city/{city} complete arguments.
//
// Admin endpoints: those of peer-common.mjs (counts, reset, forget, ...), and
//   GET  /admin/protocol -> {"elicitations": [answers], "samplings": [answers], "roots": [answers],
//                            "errors": [{tool, code, message}], "progressSent": n, "cancelled": n,
//                            "completed": {"<tool>": n}, "subscribes": n, "subscribedSessions": n,
//                            "logLevels": {"<session prefix>": level}}
//   POST /admin/touch   -> {"notified": n}
import { randomUUID } from 'node:crypto';

import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
	CreateMessageResultSchema,
	ElicitResultSchema,
	ListRootsResultSchema,
	SetLevelRequestSchema,
	SubscribeRequestSchema,
	UnsubscribeRequestSchema
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import { Counters, Cuts, log, messagesOf, parseArgs, readBody, sendJson, sendSessionNotFound, serveMcp,
	trackConnection } from './peer-common.mjs';

const { port, flags } = parseArgs();
const counters = new Counters();
const cuts = new Cuts(counters);
/** sessionId -> { transport, server } */
const sessions = new Map();
const COUNTER_URI = 'demo://counter';
let counterValue = 0;

const seen = {
	elicitations: [],
	samplings: [],
	roots: [],
	errors: [],
	progressSent: 0,
	cancelled: 0,
	completed: {},
	subscribes: 0,
	subscribed: new Set(),
	logLevels: {}
};

function resetSeen() {
	seen.elicitations = [];
	seen.samplings = [];
	seen.roots = [];
	seen.errors = [];
	seen.progressSent = 0;
	seen.cancelled = 0;
	seen.completed = {};
	seen.subscribes = 0;
	seen.logLevels = {};
}

function text(value) {
	return { content: [{ type: 'text', text: value }] };
}

function completed(tool) {
	seen.completed[tool] = (seen.completed[tool] ?? 0) + 1;
}

/** Asks the client on the call's own response stream; a JSON-RPC error is recorded and answered as text. */
async function ask(tool, extra, request, schema, into) {
	try {
		const result = await extra.sendRequest(request, schema);
		into.push(result);
		completed(tool);
		return text(JSON.stringify(result));
	}
	catch (err) {
		seen.errors.push({ tool, code: err?.code ?? null, message: String(err?.message ?? err) });
		return { ...text(`error ${err?.code}: ${err?.message}`), isError: true };
	}
}

const NAME_FORM = {
	message: 'Who are you?',
	requestedSchema: {
		type: 'object',
		properties: {
			name: { type: 'string', description: 'Your name', default: 'Ada' },
			age: { type: 'integer', description: 'Your age', default: 36 },
			subscribe: { type: 'boolean', description: 'Newsletter?' }
		}
	}
};

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
	const server = new McpServer({ name: 'mcpx-protocol-peer', version: '1.0.0' },
		{ capabilities: { logging: {}, resources: { subscribe: true, listChanged: true }, completions: {} } });
	server.registerTool('ask_name', { description: 'Elicits a name', inputSchema: { via: z.string().optional() } },
		async ({ via }, extra) => {
			counters.execution('ask_name', { via });
			if (via === 'listen') {
				try {
					const result = await server.server.elicitInput(NAME_FORM);
					seen.elicitations.push(result);
					completed('ask_name');
					return text(JSON.stringify(result));
				}
				catch (err) {
					seen.errors.push({ tool: 'ask_name', code: err?.code ?? null, message: String(err?.message ?? err) });
					return { ...text(`error ${err?.code}: ${err?.message}`), isError: true };
				}
			}
			return ask('ask_name', extra, { method: 'elicitation/create', params: NAME_FORM }, ElicitResultSchema,
				seen.elicitations);
		});
	server.registerTool('ask_model', { description: 'Asks the client to sample' }, async extra => {
		counters.execution('ask_model', {});
		return ask('ask_model', extra, {
			method: 'sampling/createMessage',
			params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 20 }
		}, CreateMessageResultSchema, seen.samplings);
	});
	server.registerTool('ask_roots', { description: 'Asks the client for its roots' }, async extra => {
		counters.execution('ask_roots', {});
		return ask('ask_roots', extra, { method: 'roots/list', params: {} }, ListRootsResultSchema, seen.roots);
	});
	server.registerTool('report_progress',
		{ description: 'Reports progress, then answers', inputSchema: { steps: z.number(), intervalMs: z.number() } },
		async ({ steps, intervalMs }, extra) => {
			counters.execution('report_progress', { steps, intervalMs });
			const token = extra._meta?.progressToken;
			for (let i = 1; i <= steps; i++) {
				await delay(intervalMs, extra.signal);
				if (extra.signal.aborted) {
					seen.cancelled++;
					return text('cancelled');
				}
				if (token !== undefined) {
					await extra.sendNotification({
						method: 'notifications/progress',
						params: { progressToken: token, progress: i, total: steps, message: `step ${i}` }
					});
					seen.progressSent++;
				}
			}
			completed('report_progress');
			return text(`done after ${steps} steps`);
		});
	server.registerTool('wait_for_cancel', { description: 'Waits to be cancelled', inputSchema: { ms: z.number() } },
		async ({ ms }, extra) => {
			counters.execution('wait_for_cancel', { ms });
			await delay(ms, extra.signal);
			if (extra.signal.aborted) {
				seen.cancelled++;
				return text('cancelled');
			}
			completed('wait_for_cancel');
			return text('not cancelled');
		});
	server.registerTool('log_messages', { description: 'Logs at every level' }, async extra => {
		counters.execution('log_messages', {});
		for (const level of ['debug', 'info', 'warning', 'error']) {
			await server.server.sendLoggingMessage({ level, logger: 'peer', data: `a ${level} message` },
				extra.sessionId);
		}
		completed('log_messages');
		return text('logged');
	});
	server.registerResource('counter', COUNTER_URI, { description: 'Changes on /admin/touch', mimeType: 'text/plain' },
		async uri => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: String(counterValue) }] }));
	server.registerResource('city', new ResourceTemplate('demo://city/{city}', {
		list: undefined,
		complete: { city: value => ['Paris', 'Prague', 'Porto', 'Berlin'].filter(c => c.startsWith(value)) }
	}), { description: 'A city' }, async (uri, { city }) => ({ contents: [{ uri: uri.href, text: `city ${city}` }] }));
	server.registerPrompt('greet', {
		description: 'Greets in a language',
		argsSchema: { language: completable(z.string(), value => ['English', 'Esperanto', 'French'].filter(l => l.startsWith(value))) }
	}, ({ language }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Greet in ${language}` } }] }));
	return server;
}

async function newSession() {
	const server = buildServer();
	const transport = new StreamableHTTPServerTransport({
		sessionIdGenerator: () => randomUUID(),
		onsessioninitialized: sessionId => {
			sessions.set(sessionId, { transport, server, subscriptions: new Set() });
			log('session opened', sessionId);
		}
	});
	server.server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
		seen.subscribes++;
		seen.subscribed.add(extra.sessionId);
		sessions.get(extra.sessionId)?.subscriptions.add(request.params.uri);
		return {};
	});
	server.server.setRequestHandler(UnsubscribeRequestSchema, async (request, extra) => {
		sessions.get(extra.sessionId)?.subscriptions.delete(request.params.uri);
		return {};
	});
	const setLevel = server.server._requestHandlers.get('logging/setLevel');
	server.server.setRequestHandler(SetLevelRequestSchema, async (request, extra) => {
		seen.logLevels[String(extra.sessionId).slice(0, 8)] = request.params.level;
		return setLevel ? setLevel(request, extra) : {};
	});
	transport.onclose = () => {
		if (transport.sessionId) {
			sessions.delete(transport.sessionId);
		}
	};
	await server.connect(transport);
	return transport;
}

async function dropSession(sessionId) {
	const session = sessions.get(sessionId);
	sessions.delete(sessionId);
	if (session) {
		await session.transport.close().catch(() => {});
		await session.server.close().catch(() => {});
	}
}

async function handleMcp(req, res) {
	trackConnection(req);
	const sessionId = req.headers['mcp-session-id'];
	let body;
	if (req.method === 'POST') {
		try {
			body = JSON.parse(await readBody(req));
		}
		catch {
			sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
			return;
		}
	}
	const messages = messagesOf(body);
	messages.forEach(m => counters.message(m));
	if (req.method === 'GET') {
		counters.gets++;
	}
	if (req.method === 'POST' && messages.some(m => m?.method === 'initialize')) {
		const transport = await newSession();
		await transport.handleRequest(req, res, body);
		return;
	}
	if (sessionId) {
		const session = sessions.get(sessionId);
		if (!session) {
			counters.notFound++;
			sendSessionNotFound(res);
			return;
		}
		await session.transport.handleRequest(req, res, body);
		return;
	}
	sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
}

serveMcp({
	port,
	flags,
	routes: {
		'GET /admin/protocol': (req, res) => {
			const { subscribed, ...rest } = seen;
			sendJson(res, 200, { ...rest, subscribedSessions: subscribed.size });
		},
		'POST /admin/touch': async (req, res) => {
			counterValue++;
			let notified = 0;
			for (const { server, subscriptions } of sessions.values()) {
				if (subscriptions.has(COUNTER_URI)) {
					await server.server.sendResourceUpdated({ uri: COUNTER_URI });
					notified++;
				}
			}
			sendJson(res, 200, { notified });
		}
	},
	admin: {
		counters,
		cuts,
		counts: () => counters.snapshot({ sessionsLive: sessions.size }),
		forget: async () => {
			const ids = [...sessions.keys()];
			await Promise.all(ids.map(dropSession));
			return ids.length;
		},
		reset: resetSeen
	},
	handleMcp
});
