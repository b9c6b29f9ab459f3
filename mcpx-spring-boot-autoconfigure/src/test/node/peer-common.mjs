// Shared plumbing of the mcpx Node test peers over HTTP (legacy-server.mjs, modern-server.mjs,
// protocol-server.mjs, modern-protocol-server.mjs): argument parsing, request counting, the
// admin endpoints, the "cut" fault injection, the request router (serveMcp) and the process
// lifecycle. Nothing in here is MCP-SDK specific.

import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * Optional append-only event log (one JSON object per line), named by the environment
 * variable MCPX_PEER_EVENT_LOG: every tool execution ({"type":"execution","tool":..,"args":..})
 * and every initialize request ({"type":"initialize"}) is written synchronously, so the
 * records survive a killed or restarted process (used by the chaos soak).
 */
const EVENT_LOG = process.env.MCPX_PEER_EVENT_LOG;

function logEvent(record) {
	if (EVENT_LOG) {
		try {
			appendFileSync(EVENT_LOG, JSON.stringify({ ...record, pid: process.pid, at: Date.now() }) + '\n');
		}
		catch (err) {
			process.stderr.write(`event log write failed: ${err?.message ?? err}\n`);
		}
	}
}

/** In-memory execution records kept for GET /admin/executions; older ones are dropped beyond this. */
const MAX_RECORDS = 100_000;

/** Sockets that carried at least one /mcp request and are still open (GET /admin/connections). */
const mcpSockets = new Set();

/** Marks the socket of an /mcp request, so GET /admin/connections can count the MCP connections still open. */
export function trackConnection(req) {
	const socket = req.socket;
	if (socket && !mcpSockets.has(socket) && !socket.destroyed) {
		mcpSockets.add(socket);
		socket.once('close', () => mcpSockets.delete(socket));
	}
}

/** Header the router stamps on every /mcp request so a tool body can find its own HTTP response. */
export const TAG_HEADER = 'x-mcpx-peer-tag';

export const SESSION_NOT_FOUND = Object.freeze({
	jsonrpc: '2.0',
	error: { code: -32001, message: 'Session not found' },
	id: null
});

/**
 * Parses `node <script> <port> [--flag ...]`: the first positional argument is the port
 * (0 or missing = pick a free one), everything starting with `--` is a flag.
 */
export function parseArgs(argv = process.argv.slice(2)) {
	const flags = new Set(argv.filter(a => a.startsWith('--')));
	const positional = argv.filter(a => !a.startsWith('--'));
	const port = positional.length > 0 ? Number(positional[0]) : 0;
	if (!Number.isInteger(port) || port < 0 || port > 65535) {
		throw new Error(`invalid port argument: ${positional[0]}`);
	}
	return { port, flags };
}

/** What the server saw since start or the last reset. */
export class Counters {
	constructor() {
		this.reset();
	}

	reset() {
		this.initialize = 0;
		this.requests = {};
		this.executions = {};
		this.ids = {};
		this.deletes = 0;
		this.gets = 0;
		this.resumes = 0;
		this.notFound = 0;
		this.cuts = 0;
		this.records = [];
		this.recordsDropped = 0;
	}

	/** Counts one received JSON-RPC message (request or notification) by method. */
	message(msg) {
		if (!msg || typeof msg !== 'object' || typeof msg.method !== 'string') {
			return;
		}
		this.requests[msg.method] = (this.requests[msg.method] ?? 0) + 1;
		if (msg.method === 'initialize') {
			this.initialize++;
			logEvent({ type: 'initialize' });
		}
		if (msg.method === 'tools/call' && typeof msg.params?.name === 'string' && msg.id !== undefined) {
			(this.ids[msg.params.name] ??= []).push(msg.id);
		}
	}

	/** Counts one tool execution; with its arguments, also records the (tool, arguments) pair. */
	execution(tool, args) {
		this.executions[tool] = (this.executions[tool] ?? 0) + 1;
		if (args !== undefined) {
			const record = { tool, args };
			if (this.records.length >= MAX_RECORDS) {
				this.records.shift();
				this.recordsDropped++;
			}
			this.records.push(record);
			logEvent({ type: 'execution', tool, args });
		}
	}

	snapshot(extra = {}) {
		return {
			initialize: this.initialize,
			requests: this.requests,
			executions: this.executions,
			ids: this.ids,
			sessionsLive: 0,
			deletes: this.deletes,
			gets: this.gets,
			resumes: this.resumes,
			notFound: this.notFound,
			cuts: this.cuts,
			...extra
		};
	}
}

/** Reads a request body completely (bounded). */
export function readBody(req, limit = 4 * 1024 * 1024) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		let size = 0;
		req.on('data', chunk => {
			size += chunk.length;
			if (size > limit) {
				reject(new Error('request body too large'));
				req.destroy();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

export function sendJson(res, status, body) {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
	res.end(text);
}

/** The standard "unknown session" answer (same bytes as the SDK's own). */
export function sendSessionNotFound(res) {
	sendJson(res, 404, SESSION_NOT_FOUND);
}

/** Messages of a parsed body, which may be a single message or a (2025-03-26) batch. */
export function messagesOf(body) {
	if (Array.isArray(body)) {
		return body;
	}
	return body && typeof body === 'object' ? [body] : [];
}

/** Adds a header to a Node IncomingMessage so that both raw and parsed header views carry it. */
export function addRequestHeader(req, name, value) {
	req.rawHeaders.push(name, value);
	req.headers[name] = value;
}

/** Reads the tag header from a plain header object or a web `Headers`. */
export function tagFrom(headers) {
	if (!headers) {
		return undefined;
	}
	if (typeof headers.get === 'function') {
		return headers.get(TAG_HEADER) ?? undefined;
	}
	return headers[TAG_HEADER];
}

/**
 * Fault injection: the next `times` calls of a tool run their body, then their HTTP
 * response is destroyed before the JSON-RPC response reaches the wire.
 *
 * - afterPriming=false (default): the response is held from the start, so the client
 *   sees the connection close without a single byte of the HTTP response (no status line).
 * - afterPriming=true: whatever the SDK writes before the result is let through and flushed,
 *   then the connection is closed (FIN) before the result is written. What that is depends on
 *   the `ahead` hint the router passes to register():
 *     'priming'  legacy SSE, protocol >= 2025-11-25: status line, headers and the priming event
 *                `id: <x>\ndata: \n\n` (waits for that first body write);
 *     'headers'  legacy SSE with an older protocol, modern --sse: status line and headers only;
 *     'nothing'  JSON responses: nothing is written ahead of the result, so this is the same
 *                as the default cut.
 */
export class Cuts {
	constructor(counters) {
		this.counters = counters;
		this.armed = new Map(); // tool -> { times, afterPriming }
		this.pending = new Map(); // tag -> { res, afterPriming, ahead, firstWrite }
		this.seq = 0;
	}

	reset() {
		this.armed.clear();
	}

	arm(tool, times, afterPriming) {
		if (times > 0) {
			this.armed.set(tool, { times, afterPriming: !!afterPriming });
		}
		else {
			this.armed.delete(tool);
		}
	}

	/**
	 * Called by the router for every /mcp POST. Tags the request and, when it is a call of an
	 * armed tool, registers the response for cutting. `ahead` tells what the SDK writes before
	 * the result: 'priming', 'headers' or 'nothing' (see the class comment).
	 */
	register(req, res, messages, ahead = 'nothing') {
		const tag = String(++this.seq);
		addRequestHeader(req, TAG_HEADER, tag);
		for (const msg of messages) {
			if (msg?.method !== 'tools/call' || msg.id === undefined) {
				continue;
			}
			const plan = this.armed.get(msg.params?.name);
			if (!plan) {
				continue;
			}
			plan.times--;
			if (plan.times <= 0) {
				this.armed.delete(msg.params.name);
			}
			const entry = { res, afterPriming: plan.afterPriming, ahead };
			if (plan.afterPriming) {
				entry.firstWrite = watchFirstWrite(res);
			}
			else {
				holdResponse(res);
			}
			this.pending.set(tag, entry);
			res.on('close', () => this.pending.delete(tag));
			break;
		}
		return tag;
	}

	/** Called by a tool wrapper after the tool body ran: cuts the response if it is marked. */
	async afterBody(tag) {
		const entry = tag === undefined ? undefined : this.pending.get(tag);
		if (!entry) {
			return false;
		}
		this.pending.delete(tag);
		this.counters.cuts++;
		const socket = entry.res.socket;
		if (!entry.afterPriming || entry.ahead === 'nothing' || !socket) {
			// nothing of the response has been (or will be) let through: drop the connection
			if (socket) {
				socket.destroy();
			}
			else {
				entry.res.destroy();
			}
			return true;
		}
		if (entry.ahead === 'priming') {
			await Promise.race([entry.firstWrite, delay(2000)]);
		}
		else {
			// writeHead() only stores the head; make sure it goes out ahead of the cut
			await waitFor(() => entry.res.headersSent, 2000);
			if (entry.res.headersSent) {
				entry.res.flushHeaders();
			}
		}
		// end() flushes what is queued (headers, priming event) and refuses anything written later
		socket.end();
		setTimeout(() => socket.destroy(), 200).unref();
		return true;
	}
}

async function waitFor(condition, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	while (!condition() && Date.now() < deadline) {
		await delay(2);
	}
}

function delay(ms) {
	return new Promise(resolve => setTimeout(resolve, ms).unref());
}

/** Makes a ServerResponse swallow everything: nothing of it ever reaches the socket. */
function holdResponse(res) {
	res.writeHead = function () {
		return this;
	};
	res.setHeader = function () {
		return this;
	};
	res.flushHeaders = () => {};
	res.write = (chunk, encoding, cb) => {
		const callback = typeof encoding === 'function' ? encoding : cb;
		if (callback) {
			queueMicrotask(() => callback());
		}
		return true;
	};
	res.end = function (chunk, encoding, cb) {
		const callback = [chunk, encoding, cb].find(a => typeof a === 'function');
		if (callback) {
			queueMicrotask(() => callback());
		}
		return this;
	};
}

/** Resolves once the first body chunk written to the response has been handed to the kernel. */
function watchFirstWrite(res) {
	return new Promise(resolve => {
		const originalWrite = res.write;
		res.write = function (chunk, encoding, cb) {
			res.write = originalWrite;
			const callback = typeof encoding === 'function' ? encoding : cb;
			const enc = typeof encoding === 'function' ? undefined : encoding;
			return originalWrite.call(this, chunk, enc, (...args) => {
				resolve();
				if (callback) {
					callback(...args);
				}
			});
		};
	});
}

/**
 * Handles `/admin/*`. Returns true when the request was an admin request.
 * The concrete peer supplies counts(), and optionally forget(body), mode(body), changed(body)
 * and reset() (what else the peer forgets on POST /admin/reset).
 */
export async function handleAdmin(req, res, url, { counters, cuts, counts, forget, mode, changed, reset }) {
	if (!url.pathname.startsWith('/admin/')) {
		return false;
	}
	const op = url.pathname.slice('/admin/'.length);
	try {
		const text = req.method === 'POST' ? await readBody(req) : '';
		const body = text.trim() ? JSON.parse(text) : {};
		if (op === 'counts' && req.method === 'GET') {
			sendJson(res, 200, counts());
		}
		else if (op === 'executions' && req.method === 'GET') {
			// every (tool, arguments) pair executed since start or the last reset, oldest first
			sendJson(res, 200, { executions: counters.records, dropped: counters.recordsDropped });
		}
		else if (op === 'connections' && req.method === 'GET') {
			// connections that carried an /mcp request and are still open (admin ones never count)
			sendJson(res, 200, { open: [...mcpSockets].filter(s => !s.destroyed).length });
		}
		else if (op === 'reset' && req.method === 'POST') {
			reset?.();
			counters.reset();
			cuts.reset();
			sendJson(res, 200, { ok: true });
		}
		else if (op === 'cut' && req.method === 'POST') {
			if (typeof body.tool !== 'string') {
				sendJson(res, 400, { error: 'body must be {"tool": "<name>", "times": n, "afterPriming": bool}' });
			}
			else {
				cuts.arm(body.tool, Number(body.times ?? 1), body.afterPriming === true);
				sendJson(res, 200, { ok: true });
			}
		}
		else if (op === 'forget' && req.method === 'POST') {
			if (!forget) {
				sendJson(res, 501, { error: 'not supported by this peer' });
			}
			else {
				sendJson(res, 200, { ok: true, dropped: await forget(body) });
			}
		}
		else if (op === 'changed' && req.method === 'POST') {
			if (!changed) {
				sendJson(res, 501, { error: 'not supported by this peer' });
			}
			else {
				sendJson(res, 200, { ok: true, notified: await changed(body) });
			}
		}
		else if (op === 'mode' && req.method === 'POST') {
			if (!mode) {
				sendJson(res, 501, { error: 'not supported by this peer' });
			}
			else {
				sendJson(res, 200, { ok: true, mode: mode(body) });
			}
		}
		else {
			sendJson(res, 404, { error: `unknown admin operation ${req.method} ${url.pathname}` });
		}
	}
	catch (err) {
		if (!res.headersSent) {
			sendJson(res, 400, { error: String(err?.message ?? err) });
		}
	}
	return true;
}

/**
 * Serves a peer on 127.0.0.1 at `port` and prints the `LISTENING <port>` line: the peer's own
 * `routes` first (keyed by method and path, for example `'POST /admin/touch'`), then its own
 * `handle(req, res, url)` if it has one (true when it answered), then the admin endpoints
 * (`handleAdmin` with the `admin` options), then `/mcp` through `handleMcp(req, res)`; any other
 * path is 404. A request that throws is answered 500 with a JSON-RPC error, or its connection
 * destroyed when the response had begun. Exits as `installLifecycle(flags)` says.
 */
export function serveMcp({ port, flags, routes = {}, handle, admin, handleMcp }) {
	const httpServer = createServer(async (req, res) => {
		try {
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			const route = routes[`${req.method} ${url.pathname}`];
			if (route) {
				await route(req, res, url);
				return;
			}
			if (handle && await handle(req, res, url)) {
				return;
			}
			if (await handleAdmin(req, res, url, admin)) {
				return;
			}
			if (url.pathname !== '/mcp') {
				sendJson(res, 404, { error: 'not found' });
				return;
			}
			await handleMcp(req, res);
		}
		catch (err) {
			log('request failed', err?.stack ?? err);
			if (!res.headersSent) {
				sendJson(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: String(err?.message ?? err) }, id: null });
			}
			else {
				res.destroy();
			}
		}
	});
	installLifecycle(flags);
	listen(httpServer, port);
	return httpServer;
}

/** Exits when stdin closes (the parent died) and on SIGTERM/SIGINT, unless --ignore-stdin is given. */
export function installLifecycle(flags) {
	const exit = () => process.exit(0);
	process.on('SIGTERM', exit);
	process.on('SIGINT', exit);
	if (!flags.has('--ignore-stdin')) {
		process.stdin.on('end', exit);
		process.stdin.on('close', exit);
		process.stdin.on('error', exit);
		process.stdin.resume();
	}
}

/** Listens on 127.0.0.1 and prints the single `LISTENING <port>` line to stdout. */
export function listen(server, port) {
	server.on('error', err => {
		process.stderr.write(`listen failed: ${err?.stack ?? err}\n`);
		process.exit(1);
	});
	server.listen(port, '127.0.0.1', () => {
		process.stdout.write(`LISTENING ${server.address().port}\n`);
	});
}

export function log(...parts) {
	if (process.env.MCPX_PEER_DEBUG) {
		process.stderr.write(`[peer] ${parts.join(' ')}\n`);
	}
}
