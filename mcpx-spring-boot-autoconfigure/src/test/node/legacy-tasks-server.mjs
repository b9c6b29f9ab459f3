// Legacy-era (2025-11-25) MCP test peer for the experimental tasks (2025-11-25
// basic/utilities/tasks) whose task store spans sessions: unlike server-everything, whose tasks
// live in a store of the session that created them, every session here shares one task book,
// so a task started in one session is followed (tasks/get, tasks/result, tasks/cancel, tasks/list)
// from any other, and, with MCPX_TASK_STORE, from a restarted process.
//
//   node legacy-tasks-server.mjs <port|0> [--json] [--ignore-stdin]
//   env MCPX_TASK_STORE=<file>  keep tasks and executions in that file across restarts
//   env MCPX_PEER_EVENT_LOG=<file>  as in peer-common.mjs
//
// Streamable HTTP with sessions on http://127.0.0.1:<port>/mcp, built on
// @modelcontextprotocol/sdk v1 (one McpServer per session, as legacy-server.mjs; SSE answers with
// a priming event, --json for application/json). Capabilities: tools, and tasks.list,
// tasks.cancel, tasks.requests.tools.call. Tools (execution.taskSupport in tools/list):
//   greet {name}                   forbidden; a tools/call of it with `task` is answered -32601
//   slow_compute {seconds, label}  optional, read-only; works `seconds` (default 1)
//   delete_record {id, durationMs?, pollIntervalMs?, ttlMs?, confirm?, outcome?}
//                                  optional, destructive, counted; as in tasks-server.mjs
//   failing_job {durationMs?}      required; ends with an isError result (status failed, as
//                                  2025-11-25 §Task Status says for tool calls)
//   protocol_error_job {durationMs?}  optional; fails: tasks/result answers the JSON-RPC error -32603
//   confirm_delete {filename}      required; asks a confirmation (input_required)
//   multi_input {}                 required; asks two questions at once
// Every task tool takes pollIntervalMs (default 200) and ttlMs (default 300000, null = unlimited);
// otherwise the request's task.ttl. A required tool called without `task` gets what the SDK
// answers. An optional one called without `task` runs as a task the SDK awaits itself.
// The CreateTaskResult carries io.modelcontextprotocol/model-immediate-response in _meta.
//
// Questions (input_required): the task asks through `elicitation/create` requests tied to it
// (io.modelcontextprotocol/related-task), delivered on the stream of a tasks/result request
// (2025-11-25 §Input Required Status): first in the session that created it; a tasks/result for
// it in another session (or after a restart) asks again there. The first answer to a key counts.
// A client without the elicitation capability gets no question: the answer is taken as "cancel".
// Each status change is announced to the session that created the task (notifications/tasks/status
// on its GET stream, when open). tasks/result of a cancelled task answers -32603 (no result).
//
// Admin endpoints: those of legacy-server.mjs (counts, reset, executions, connections, forget
// [sessions], mode {"expireEverySession"}, cut) and of task-common.mjs (tasks, forget-tasks,
// finish, cut-request). /admin/counts adds `executions` from the task book (kept across restarts
// with MCPX_TASK_STORE), `tasks` (count per status) and `augmented` (tools/call requests that
// carried `task`, per tool).
import { randomUUID } from 'node:crypto';

import { InMemoryTaskMessageQueue } from '@modelcontextprotocol/sdk/experimental/tasks';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
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
import { RequestCuts, TERMINAL, TaskBook, handleTaskAdmin, pollIntervalFromArgs, ttlFromArgs } from './task-common.mjs';

const { port, flags } = parseArgs();
const jsonResponse = flags.has('--json');

/** How long a question waits for its answer before the SDK gives up on it. */
const ASK_TIMEOUT_MS = 3_600_000;

const counters = new Counters();
const cuts = new Cuts(counters);
const requestCuts = new RequestCuts(counters);
/** sessionId -> { transport, server } */
const sessions = new Map();
const book = new TaskBook({ file: process.env.MCPX_TASK_STORE, onChange: task => announce(task), log });
/** Unfinished /mcp responses, destroyed by /admin/forget {"abortStreams": true}. */
const liveResponses = new Set();
/** tools/call requests that carried `task`, per tool. */
let augmented = {};
let expireEverySession = false;
/** "<taskId> <key>" -> the session a question is pending in. */
const asked = new Map();

function text(value) {
	return { content: [{ type: 'text', text: value }] };
}

/** 2025-11-25 §Task Status: a tool call whose result has isError is a failed task. */
function legacyStatus(task) {
	return task.status === 'completed' && task.result?.isError === true ? 'failed' : task.status;
}

/** The 2025-11-25 Task: ttl and pollInterval in milliseconds. */
function legacyTask(task) {
	const view = {
		taskId: task.taskId,
		status: legacyStatus(task),
		createdAt: task.createdAt,
		lastUpdatedAt: task.lastUpdatedAt,
		ttl: task.ttlMs,
		pollInterval: task.pollIntervalMs
	};
	if (task.statusMessage) {
		view.statusMessage = task.statusMessage;
	}
	return view;
}

/**
 * The SDK's TaskStore over the shared task book. The session id the SDK passes is recorded with
 * a new task and otherwise ignored: any session sees every task.
 */
class SharedTaskStore {
	async createTask(taskParams, requestId, request, sessionId) {
		const tool = request.params?.name;
		const args = request.params?.arguments ?? {};
		const ttlMs = ttlFromArgs(args) !== undefined ? ttlFromArgs(args) : taskParams.ttl;
		const task = book.create({
			tool,
			args,
			ttlMs: typeof ttlMs === 'number' && ttlMs > 0 ? Math.round(ttlMs) : ttlMs === null ? null : undefined,
			pollIntervalMs: pollIntervalFromArgs(args) ?? taskParams.pollInterval,
			sessionId
		});
		counters.execution(tool, args);
		return legacyTask(task);
	}

	async getTask(taskId) {
		const task = book.get(taskId);
		return task ? legacyTask(task) : null;
	}

	async storeTaskResult(taskId) {
		throw new Error(`the outcome of task ${taskId} is set by its program`);
	}

	/** 2025-11-25 §Result Retrieval: exactly what the request would have returned, error included. */
	async getTaskResult(taskId) {
		const task = book.get(taskId);
		if (!task) {
			throw new McpError(-32602, `Failed to retrieve task: Task not found: ${taskId}`);
		}
		if (task.status === 'failed') {
			throw new McpError(task.error.code, task.error.message, task.error.data);
		}
		if (task.status !== 'completed') {
			throw new McpError(-32603, `Task ${taskId} is ${task.status}: it has no result`);
		}
		return task.result;
	}

	async updateTaskStatus(taskId, status) {
		const task = book.get(taskId);
		if (!task) {
			throw new Error(`Task with ID ${taskId} not found`);
		}
		if (status !== 'cancelled') {
			throw new Error(`task ${taskId}: status ${status} is set by its program`);
		}
		book.cancel(taskId);
		forgetQuestions(taskId);
	}

	/** One page of 10 tasks, oldest first; the cursor is the last task id of the page before. */
	async listTasks(cursor) {
		const all = book.all().sort((a, b) => a.createdAtMs - b.createdAtMs);
		let start = 0;
		if (cursor !== undefined) {
			const index = all.findIndex(task => task.taskId === cursor);
			if (index < 0) {
				throw new Error(`Invalid cursor: ${cursor}`);
			}
			start = index + 1;
		}
		const page = all.slice(start, start + 10);
		return {
			tasks: page.map(legacyTask),
			nextCursor: start + 10 < all.length ? page[page.length - 1].taskId : undefined
		};
	}
}

const taskStore = new SharedTaskStore();

/**
 * Tells the session that created a task of each change, as notifications/tasks/status on its GET
 * stream when one is open (2025-11-25 §Task Status Notification: optional; the SDK's own task
 * store wrapper, and so server-everything, sends them the same way).
 */
function announce(task) {
	const session = task.sessionId ? sessions.get(task.sessionId) : undefined;
	session?.server.server.notification({ method: 'notifications/tasks/status', params: legacyTask(task) })
		.catch(err => log('status notification of task', task.taskId, 'failed:', err?.message ?? err));
}

function forgetQuestions(taskId) {
	for (const mark of [...asked.keys()]) {
		if (mark.startsWith(`${taskId} `)) {
			asked.delete(mark);
		}
	}
}

/**
 * Asks the pending questions of an input_required task in a session, as elicitation/create
 * requests tied to the task: the SDK queues them and delivers them on that session's next
 * tasks/result stream (2025-11-25 §Input Required Status). A question already pending in this
 * session is not asked twice.
 */
function askIn(sessionId, taskId) {
	const session = sessions.get(sessionId);
	const task = book.get(taskId);
	if (!session || !task || task.status !== 'input_required') {
		return;
	}
	const elicits = session.server.server.getClientCapabilities()?.elicitation !== undefined;
	for (const [key, question] of Object.entries(book.pending(task))) {
		if (!elicits) {
			book.answer(taskId, { [key]: { action: 'cancel' } });
			continue;
		}
		const mark = `${taskId} ${key}`;
		if (asked.get(mark) === sessionId) {
			continue;
		}
		asked.set(mark, sessionId);
		session.server.server
			.request({ method: 'elicitation/create', params: { mode: 'form', ...question } }, ElicitResultSchema,
				{ relatedTask: { taskId }, timeout: ASK_TIMEOUT_MS })
			.then(answer => book.answer(taskId, { [key]: answer }))
			.catch(err => log('question', key, 'of task', taskId, 'failed:', err?.message ?? err))
			.finally(() => {
				if (asked.get(mark) === sessionId) {
					asked.delete(mark);
				}
			});
	}
}

/** Counts a tool body and applies an armed cut once it ran (legacy-server.mjs). */
function tool(name, body) {
	return async (args, extra) => {
		book.execution(name, args);
		counters.execution(name, args);
		try {
			return await body(args);
		}
		finally {
			await cuts.afterBody(tagFrom(extra?.requestInfo?.headers));
		}
	};
}

/** The handlers of a task tool: create a task in the shared book, then cut and ask as armed. */
function taskHandler(name) {
	return {
		createTask: async (args, extra) => {
			const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? undefined });
			await cuts.afterBody(tagFrom(extra?.requestInfo?.headers));
			if (extra.sessionId) {
				// the seed state is working; the program may ask at once
				askIn(extra.sessionId, task.taskId);
			}
			return {
				task,
				_meta: { 'io.modelcontextprotocol/model-immediate-response': `${name} is running as task ${task.taskId}` }
			};
		},
		getTask: async (args, extra) => extra.taskStore.getTask(extra.taskId),
		getTaskResult: async (args, extra) => extra.taskStore.getTaskResult(extra.taskId)
	};
}

const TASK_ARGS = { pollIntervalMs: z.number().int().positive().optional(), ttlMs: z.number().int().positive().nullable().optional() };

function buildServer() {
	const server = new McpServer({ name: 'mcpx-legacy-tasks-peer', version: '1.0.0' }, {
		capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
		taskStore,
		taskMessageQueue: new InMemoryTaskMessageQueue()
	});
	const tasks = server.experimental.tasks;
	server.registerTool('greet', {
		description: 'Greets someone, directly (taskSupport forbidden)',
		inputSchema: { name: z.string() },
		annotations: { readOnlyHint: true }
	}, tool('greet', async ({ name }) => text(`Hello, ${name}!`)));
	tasks.registerToolTask('slow_compute', {
		description: 'Works for `seconds`, then answers (taskSupport optional)',
		inputSchema: z.object({ seconds: z.number().optional(), label: z.string().optional(), ...TASK_ARGS }),
		execution: { taskSupport: 'optional' },
		annotations: { readOnlyHint: true }
	}, taskHandler('slow_compute'));
	tasks.registerToolTask('delete_record', {
		description: 'Deletes a record, counted (taskSupport optional)',
		inputSchema: z.object({
			id: z.string(),
			durationMs: z.number().int().nonnegative().optional(),
			confirm: z.boolean().optional(),
			outcome: z.enum(['success', 'tool_error', 'protocol_error']).optional(),
			...TASK_ARGS
		}),
		execution: { taskSupport: 'optional' },
		annotations: { destructiveHint: true, idempotentHint: false, readOnlyHint: false }
	}, taskHandler('delete_record'));
	tasks.registerToolTask('failing_job', {
		description: 'A task that ends with a tool error (taskSupport required)',
		inputSchema: z.object({ durationMs: z.number().int().nonnegative().optional(), ...TASK_ARGS }),
		execution: { taskSupport: 'required' }
	}, taskHandler('failing_job'));
	tasks.registerToolTask('protocol_error_job', {
		description: 'Fails with a JSON-RPC error (taskSupport optional)',
		inputSchema: z.object({ durationMs: z.number().int().nonnegative().optional(), ...TASK_ARGS }),
		execution: { taskSupport: 'optional' }
	}, taskHandler('protocol_error_job'));
	tasks.registerToolTask('confirm_delete', {
		description: 'Asks for a confirmation, then deletes a file (taskSupport required)',
		inputSchema: z.object({ filename: z.string(), ...TASK_ARGS }),
		execution: { taskSupport: 'required' },
		annotations: { destructiveHint: true, idempotentHint: false }
	}, taskHandler('confirm_delete'));
	tasks.registerToolTask('multi_input', {
		description: 'Asks two questions at once (taskSupport required)',
		inputSchema: z.object({ ...TASK_ARGS }),
		execution: { taskSupport: 'required' }
	}, taskHandler('multi_input'));
	return server;
}

/** A tiny in-memory event store per session (as legacy-server.mjs), so SSE streams carry ids. */
let eventSeq = 0;
class MemoryEventStore {
	constructor() {
		this.events = new Map();
	}

	async storeEvent(streamId, message) {
		const eventId = `evt-${++eventSeq}`;
		this.events.set(eventId, { streamId, seq: eventSeq, message });
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

async function newSession() {
	const server = buildServer();
	const transport = new StreamableHTTPServerTransport({
		sessionIdGenerator: () => randomUUID(),
		enableJsonResponse: jsonResponse,
		eventStore: new MemoryEventStore(),
		onsessioninitialized: sessionId => sessions.set(sessionId, { transport, server })
	});
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

function aheadOfResult(req, messages) {
	if (jsonResponse) {
		return 'nothing';
	}
	const init = messages.find(m => m?.method === 'initialize');
	const version = init ? init.params?.protocolVersion : (req.headers['mcp-protocol-version'] ?? '2025-03-26');
	return String(version) >= '2025-11-25' ? 'priming' : 'headers';
}

/**
 * What the router does before the SDK sees a request: counts `task` on tools/call, refuses a task
 * for a forbidden tool (2025-11-25 §Tool-Level Negotiation: -32601), asks a task's questions in
 * the session of a tasks/result for it, and arms a cut of the whole request. Returns true when it
 * answered the request itself.
 */
function beforeSdk(req, res, messages, sessionId) {
	for (const message of messages) {
		if (message?.method === 'tools/call' && message.params?.task !== undefined) {
			const name = String(message.params?.name);
			augmented[name] = (augmented[name] ?? 0) + 1;
			if (name === 'greet' && message.id !== undefined) {
				sendJson(res, 200, { jsonrpc: '2.0', id: message.id,
					error: { code: -32601, message: `Tool ${name} does not support tasks (taskSupport: forbidden)` } });
				return true;
			}
		}
		if (message?.method === 'tasks/result' && sessionId) {
			askIn(sessionId, message.params?.taskId);
		}
		if (message?.id !== undefined && requestCuts.take(message)) {
			RequestCuts.dropAtFirstWrite(res);
		}
	}
	return false;
}

async function handleMcp(req, res) {
	trackConnection(req);
	liveResponses.add(res);
	res.on('close', () => liveResponses.delete(res));
	const sessionId = req.headers['mcp-session-id'];
	let body;
	if (req.method === 'POST') {
		try {
			body = JSON.parse(await readBody(req));
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
	if (req.method === 'POST' && messages.some(m => m?.method === 'initialize')) {
		const transport = await newSession();
		cuts.register(req, res, messages, aheadOfResult(req, messages));
		await transport.handleRequest(req, res, body);
		return;
	}
	if (!sessionId) {
		sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
		return;
	}
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
		if (beforeSdk(req, res, messages, sessionId)) {
			return;
		}
		cuts.register(req, res, messages, aheadOfResult(req, messages));
	}
	await session.transport.handleRequest(req, res, body);
}

// A task that ended while a question of it was pending needs no answer any more.
setInterval(() => {
	for (const mark of [...asked.keys()]) {
		const task = book.get(mark.split(' ')[0]);
		if (!task || TERMINAL.has(task.status)) {
			asked.delete(mark);
		}
	}
}, 1000).unref();

serveMcp({
	port,
	flags,
	handle: (req, res, url) => handleTaskAdmin(req, res, url, { book, requestCuts }),
	admin: {
		counters,
		cuts,
		counts: () => counters.snapshot({
			sessionsLive: sessions.size,
			executions: book.executionCounts(),
			tasks: book.statusCounts(),
			augmented
		}),
		forget: async body => {
			if (body.abortStreams === true) {
				for (const live of liveResponses) {
					live.socket?.destroy();
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
		reset: () => {
			book.resetExecutions();
			requestCuts.reset();
			augmented = {};
		}
	},
	handleMcp
});
