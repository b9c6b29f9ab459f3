// Legacy-era (2025-03-26 .. 2025-11-25) MCP test peer for the mcpx Java tests.
//
//   node legacy-server.mjs <port|0> [--json] [--ignore-stdin]
//
// Streamable HTTP on http://127.0.0.1:<port>/mcp with sessions (one transport + McpServer per
// session), built on @modelcontextprotocol/sdk v1. Prints exactly one `LISTENING <port>` line on
// stdout once it accepts connections. Exits when stdin closes (unless --ignore-stdin) and on
// SIGTERM.
//
// SSE responses by default (enableJsonResponse: false); --json answers application/json.
// Every session has an in-memory event store, so SSE streams carry `id:` lines, POST streams of
// clients speaking protocol >= 2025-11-25 start with a priming event (`id: <x>` + empty data),
// and a lost stream can be resumed with GET + Last-Event-ID.
//
// Admin endpoints (same port, JSON):
//   GET  /admin/counts  -> {"initialize": n, "requests": {"<method>": n}, "executions": {"<tool>": n},
//                           "ids": {"<tool>": [jsonrpc ids]}, "sessionsLive": n, "deletes": n,
//                           "gets": n, "resumes": n, "notFound": n, "cuts": n}
//   POST /admin/reset   -> zero all counters (and disarm cuts)
//   GET  /admin/executions -> {"executions": [{"tool": "<name>", "args": {...}}], "dropped": n}: every
//                        tool body that ran, with its arguments, oldest first (since start or reset)
//   GET  /admin/connections -> {"open": n}: connections that carried an /mcp request and are still open
//   env MCPX_PEER_EVENT_LOG=<file> -> executions and initialize requests are also appended to that
//                        file, one JSON object per line, surviving a restart of the process
//   POST /admin/forget  [{"abortStreams": bool}] -> drop every session; old ids get 404 -32001.
//                        Open streams of those sessions (GET streams, unfinished POST responses)
//                        end cleanly (final chunk, no response), or with abortStreams=true their
//                        connections are destroyed like a crashed server's
//   POST /admin/changed {"kind": "tools"|"prompts"|"resources"} -> every live session announces
//                        notifications/<kind>/list_changed (on its GET stream when one is open)
//   POST /admin/mode    {"expireEverySession": bool} -> while true every JSON-RPC request carrying
//                        an Mcp-Session-Id (except initialize) is answered 404 -32001 and that
//                        session is dropped; initialize and notifications still work
//   POST /admin/cut     {"tool": "<name>", "times": n, "afterPriming": bool} -> the next n calls
//                        of the tool run their body, then the HTTP response is destroyed before
//                        the JSON-RPC response is written (see Cuts in peer-common.mjs)
//   POST /admin/add-tool {"name": "<tool>"} -> a tool that answers "<tool> ran" is added to every
//                        live session (each announces notifications/tools/list_changed) and to
//                        every new one
//
// Routing details:
//   - an initialize request always opens a new session, whatever Mcp-Session-Id it carries;
//   - any other request with an unknown Mcp-Session-Id -> 404 {"jsonrpc":"2.0","error":
//     {"code":-32001,"message":"Session not found"},"id":null};
//   - any other request without Mcp-Session-Id -> 400 -32000 "Bad Request: No valid session ID provided".
import { randomUUID } from 'node:crypto';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

import {
	Counters,
	Cuts,
	log,
	messagesOf,
	parseArgs,
	readBody,
	sendJson,
	sendSessionNotFound,
	serveMcp,
	tagFrom,
	trackConnection
} from './peer-common.mjs';

const { port, flags } = parseArgs();
const jsonResponse = flags.has('--json');

const counters = new Counters();
const cuts = new Cuts(counters);
/** sessionId -> { transport, server } */
const sessions = new Map();
const store = new Map();
/** Unfinished /mcp responses, destroyed by /admin/forget {"abortStreams": true}. */
const liveResponses = new Set();
let expireEverySession = false;

/** A tiny in-memory event store; one per session, event ids unique per process. */
let eventSeq = 0;
class MemoryEventStore {
	constructor() {
		this.events = new Map(); // eventId -> { streamId, seq, message }
	}

	async storeEvent(streamId, message) {
		const seq = ++eventSeq;
		const eventId = `evt-${seq}`;
		this.events.set(eventId, { streamId, seq, message });
		return eventId;
	}

	async getStreamIdForEventId(eventId) {
		return this.events.get(eventId)?.streamId;
	}

	async replayEventsAfter(lastEventId, { send }) {
		const last = this.events.get(lastEventId);
		if (!last) {
			return '';
		}
		for (const [eventId, event] of this.events) {
			const isPriming = event.message && Object.keys(event.message).length === 0;
			if (event.streamId === last.streamId && event.seq > last.seq && !isPriming) {
				await send(eventId, event.message);
			}
		}
		return last.streamId;
	}
}

function text(value) {
	return { content: [{ type: 'text', text: value }] };
}

/** Wraps a tool body: counts the execution, then applies an armed cut. */
function tool(name, body) {
	return async (args, extra) => {
		counters.execution(name, args);
		try {
			return await body(args);
		}
		finally {
			await cuts.afterBody(tagFrom(extra?.requestInfo?.headers));
		}
	};
}

/** Tools added at runtime through /admin/add-tool. */
const addedTools = [];

function registerAddedTool(server, name) {
	server.registerTool(
		name,
		{ description: `Added at runtime: ${name}`, inputSchema: {} },
		tool(name, async () => text(`${name} ran`))
	);
}

function buildServer() {
	const server = new McpServer({ name: 'mcpx-legacy-peer', version: '1.0.0' });
	addedTools.forEach(name => registerAddedTool(server, name));
	server.registerTool(
		'echo',
		{
			description: 'Echoes the text back',
			inputSchema: { text: z.string() },
			annotations: { readOnlyHint: true }
		},
		tool('echo', async ({ text: value }) => text(value))
	);
	server.registerTool(
		'set_value',
		{
			description: 'Stores a value under a key',
			inputSchema: { key: z.string(), value: z.string() },
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
			inputSchema: { id: z.string() },
			annotations: { destructiveHint: true, readOnlyHint: false, idempotentHint: false }
		},
		tool('delete_item', async ({ id }) => text(`deleted ${id}`))
	);
	server.registerTool(
		'slow',
		{
			description: 'Sleeps for ms milliseconds',
			inputSchema: { ms: z.number() }
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
			argsSchema: { name: z.string() }
		},
		({ name }) => ({
			messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }]
		})
	);
	server.registerResource(
		'readme',
		'demo://readme',
		{ description: 'A demo resource', mimeType: 'text/plain' },
		async uri => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the mcpx legacy test peer.' }] })
	);
	return server;
}

async function newSession() {
	const server = buildServer();
	const transport = new StreamableHTTPServerTransport({
		sessionIdGenerator: () => randomUUID(),
		enableJsonResponse: jsonResponse,
		eventStore: new MemoryEventStore(),
		onsessioninitialized: sessionId => {
			sessions.set(sessionId, { transport, server });
			log('session opened', sessionId);
		},
		onsessionclosed: sessionId => {
			log('session deleted', sessionId);
		}
	});
	// set before connect(): the protocol layer chains the handlers it finds
	transport.onclose = () => {
		if (transport.sessionId) {
			sessions.delete(transport.sessionId);
		}
	};
	transport.onerror = err => log('transport error', err?.message ?? err);
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

/** What the SDK writes on a POST response before the result (see Cuts in peer-common.mjs). */
function aheadOfResult(req, messages) {
	if (jsonResponse) {
		return 'nothing';
	}
	const init = messages.find(m => m?.method === 'initialize');
	const version = init ? init.params?.protocolVersion : (req.headers['mcp-protocol-version'] ?? '2025-03-26');
	return String(version) >= '2025-11-25' ? 'priming' : 'headers';
}

async function handleMcp(req, res) {
	trackConnection(req);
	liveResponses.add(res);
	res.on('close', () => liveResponses.delete(res));
	const sessionId = req.headers['mcp-session-id'];
	let body;
	if (req.method === 'POST') {
		const raw = await readBody(req);
		try {
			body = JSON.parse(raw);
		}
		catch {
			sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null });
			return;
		}
	}
	const messages = messagesOf(body);
	messages.forEach(m => counters.message(m));
	if (req.method === 'GET') {
		counters.gets++;
		if (req.headers['last-event-id']) {
			counters.resumes++;
		}
	}
	if (req.method === 'DELETE') {
		counters.deletes++;
	}
	const isInitialize = messages.some(m => m?.method === 'initialize');

	if (req.method === 'POST' && isInitialize) {
		const transport = await newSession();
		cuts.register(req, res, messages, aheadOfResult(req, messages));
		await transport.handleRequest(req, res, body);
		return;
	}
	if (sessionId) {
		// Requests only: the initialized notification of a fresh handshake passes, so a client
		// can open sessions but never get an answer in one.
		if (expireEverySession && messages.some(m => m?.method !== undefined && m?.id !== undefined)) {
			counters.notFound++;
			await dropSession(sessionId);
			sendSessionNotFound(res);
			return;
		}
		const session = sessions.get(sessionId);
		if (!session) {
			counters.notFound++;
			sendSessionNotFound(res);
			return;
		}
		if (req.method === 'POST') {
			cuts.register(req, res, messages, aheadOfResult(req, messages));
		}
		await session.transport.handleRequest(req, res, body);
		return;
	}
	sendJson(res, 400, {
		jsonrpc: '2.0',
		error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
		id: null
	});
}

serveMcp({
	port,
	flags,
	routes: {
		'POST /admin/add-tool': async (req, res) => {
			const { name } = JSON.parse((await readBody(req)) || '{}');
			if (typeof name !== 'string' || addedTools.includes(name)) {
				sendJson(res, 400, { error: 'body must be {"name": "<new tool>"}' });
				return;
			}
			addedTools.push(name);
			// registering on a connected server announces tools/list_changed
			for (const { server } of sessions.values()) {
				registerAddedTool(server, name);
			}
			sendJson(res, 200, { ok: true, sessions: sessions.size });
		}
	},
	admin: {
		counters,
		cuts,
		counts: () => counters.snapshot({ sessionsLive: sessions.size }),
		forget: async body => {
			if (body.abortStreams === true) {
				for (const res of liveResponses) {
					res.socket?.destroy();
				}
			}
			const ids = [...sessions.keys()];
			await Promise.all(ids.map(dropSession));
			return ids.length;
		},
		mode: body => {
			if (typeof body.expireEverySession === 'boolean') {
				expireEverySession = body.expireEverySession;
			}
			return { expireEverySession };
		},
		// {"kind": "tools" | "prompts" | "resources"}: every live session's server announces a change
		changed: async body => {
			let notified = 0;
			for (const { server } of sessions.values()) {
				if (body.kind === 'prompts') {
					server.sendPromptListChanged();
				}
				else if (body.kind === 'resources') {
					server.sendResourceListChanged();
				}
				else {
					server.sendToolListChanged();
				}
				notified++;
			}
			return notified;
		}
	},
	handleMcp
});
