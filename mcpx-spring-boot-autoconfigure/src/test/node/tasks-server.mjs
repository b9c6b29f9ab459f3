// Modern-era (2026-07-28) MCP test peer for the tasks extension `io.modelcontextprotocol/tasks`
// (SEP-2663, spec/extensions/tasks-sep-2663.mdx), written by hand: no released server implements
// the extension, and the TypeScript SDK v2 has no task runtime. The official conformance suite's
// server scenarios `tasks-*` judge it (TasksServerConformanceTest).
//
//   node tasks-server.mjs <port|0> [--sse] [--ignore-stdin]
//   env MCPX_TASK_STORE=<file>  keep tasks and executions in that file: a restarted process (same
//                               file) knows every task of the one before and finishes their work
//   env MCPX_PEER_EVENT_LOG=<file>  as in peer-common.mjs
//
// Stateless Streamable HTTP on http://127.0.0.1:<port>/mcp, 2026-07-28 only: every request needs
// MCP-Protocol-Version, Mcp-Method, Mcp-Name (tools/call: the tool; tasks/get, tasks/update,
// tasks/cancel: the taskId) matching the body (else 400 -32020), and the _meta envelope (else 400
// -32602; another version: 400 -32022). An unknown method (tasks/result, tasks/list, initialize
// among them) is 404 -32601. Answers are application/json, or one-event SSE streams with --sse;
// subscriptions/listen is always a stream.
//
// A tools/call whose _meta clientCapabilities declare the extension is answered with a task
// (resultType "task") for every tool but greet; without it, a tool that can run directly does,
// and one that needs a task is refused with 400 -32021. Tools:
//   greet {name}                      direct only: "Hello, <name>!"
//   slow_compute {seconds, label}     works `seconds` (default 1), then "Computed <label> in <s>s"
//   failing_job {durationMs?}         task required; after ~1 s completed with isError: true
//   protocol_error_job {durationMs?}  fails with the JSON-RPC error -32603 (status failed)
//   confirm_delete {filename}         task required; input_required with one elicitation (confirm),
//                                     then "Deleted <filename>" or "Kept <filename>: not confirmed"
//   multi_input {}                    task required; two elicitations pending at once (name, confirm)
//   test_tool_with_task {}            task required; first an InputRequiredResult (MRTR) asking
//                                     user_name, then on the retry a task answering "Hello, <name>!"
//   delete_record {id, durationMs?, pollIntervalMs?, ttlMs?, confirm?, outcome?}
//                                     destructive, counted; works durationMs (default 1000); confirm:
//                                     true asks first; outcome "success" (default), "tool_error"
//                                     (isError result) or "protocol_error" (failed, -32603)
// Every task tool accepts pollIntervalMs (default 200) and ttlMs (default 300000, null = unlimited).
//
// tasks/get returns the DetailedTask (inputRequests when input_required, result when completed,
// error when failed); tasks/update takes inputResponses for pending keys and ignores the others;
// tasks/cancel acks (also on a terminal task); an unknown task is -32602. subscriptions/listen
// with notifications.taskIds sends notifications/tasks (the DetailedTask) on every status change,
// after the acknowledgement and a first snapshot of each task.
//
// Admin endpoints: those of peer-common.mjs (counts, reset, executions, connections, cut) and of
// task-common.mjs (tasks, forget-tasks, finish, cut-request). /admin/counts reports `executions`
// from the task book (kept across restarts with MCPX_TASK_STORE) and `tasks` (count per status).
// POST /admin/cut {"tool": ...} cuts a tools/call after its task was created (or its direct run ended).

import {
	Counters,
	Cuts,
	log,
	parseArgs,
	readBody,
	sendJson,
	serveMcp,
	trackConnection
} from './peer-common.mjs';
import { PROGRAMS, RequestCuts, TaskBook, handleTaskAdmin, pollIntervalFromArgs, ttlFromArgs } from './task-common.mjs';

const VERSION = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const META_SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
const SERVER_INFO = { name: 'mcpx-tasks-peer', version: '1.0.0' };

const { port, flags } = parseArgs();
const sse = flags.has('--sse');

const counters = new Counters();
const cuts = new Cuts(counters);
const requestCuts = new RequestCuts(counters);
/** Open subscriptions/listen streams: { res, id, taskIds: Set }. */
const listeners = new Set();
const book = new TaskBook({ file: process.env.MCPX_TASK_STORE, onChange: task => notify(task), log });

/** A JSON-RPC error with the HTTP status it is sent with. */
class RpcError extends Error {
	constructor(code, message, data, status = 200) {
		super(message);
		this.code = code;
		this.data = data;
		this.status = status;
	}

	toJson() {
		return { code: this.code, message: this.message, ...(this.data === undefined ? {} : { data: this.data }) };
	}
}

/** 2026-07-28 tasks extension §Capability Negotiation: -32021 names the extension it needs. */
function missingExtension(what) {
	return new RpcError(-32021, `Missing required client capability: ${what} needs the ${TASKS} extension`,
		{ requiredCapabilities: { extensions: { [TASKS]: {} } } }, 400);
}

function headerMismatch(detail) {
	return new RpcError(-32020, `Bad Request: header mismatch: ${detail}`, undefined, 400);
}

function text(value) {
	return { content: [{ type: 'text', text: value }] };
}

const TOOLS = [
	{
		name: 'greet',
		description: 'Greets someone, directly (never a task)',
		inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
		annotations: { readOnlyHint: true }
	},
	{
		name: 'slow_compute',
		description: 'Works for `seconds`, then answers; a task when the client takes tasks',
		inputSchema: {
			type: 'object',
			properties: { seconds: { type: 'number' }, label: { type: 'string' }, pollIntervalMs: { type: 'integer' },
				ttlMs: { type: ['integer', 'null'] } }
		},
		annotations: { readOnlyHint: true }
	},
	{
		name: 'failing_job',
		description: 'A task that ends with a tool error (isError); needs the tasks extension',
		inputSchema: { type: 'object', properties: { durationMs: { type: 'integer' } } }
	},
	{
		name: 'protocol_error_job',
		description: 'Fails with a JSON-RPC error (a failed task)',
		inputSchema: { type: 'object', properties: { durationMs: { type: 'integer' } } }
	},
	{
		name: 'confirm_delete',
		description: 'Asks for a confirmation, then deletes a file; needs the tasks extension',
		inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
		annotations: { destructiveHint: true, idempotentHint: false }
	},
	{
		name: 'multi_input',
		description: 'Asks two questions at once; needs the tasks extension',
		inputSchema: { type: 'object', properties: {} }
	},
	{
		name: 'test_tool_with_task',
		description: 'Asks user_name (input required), then answers through a task; needs the tasks extension',
		inputSchema: { type: 'object', properties: {} }
	},
	{
		name: 'delete_record',
		description: 'Deletes a record (counted); a task when the client takes tasks',
		inputSchema: {
			type: 'object',
			properties: {
				id: { type: 'string' },
				durationMs: { type: 'integer' },
				pollIntervalMs: { type: 'integer' },
				ttlMs: { type: ['integer', 'null'] },
				confirm: { type: 'boolean' },
				outcome: { type: 'string', enum: ['success', 'tool_error', 'protocol_error'] }
			},
			required: ['id']
		},
		annotations: { destructiveHint: true, idempotentHint: false, readOnlyHint: false }
	}
];

/** Tools a client without the extension cannot call (the server will only run them as tasks). */
const TASK_REQUIRED = new Set(['failing_job', 'confirm_delete', 'multi_input', 'test_tool_with_task']);

function taskFields(task) {
	const fields = {
		taskId: task.taskId,
		status: task.status,
		createdAt: task.createdAt,
		lastUpdatedAt: task.lastUpdatedAt,
		ttlMs: task.ttlMs,
		pollIntervalMs: task.pollIntervalMs
	};
	if (task.statusMessage) {
		fields.statusMessage = task.statusMessage;
	}
	return fields;
}

/** 2026-07-28 tasks extension §Tasks: the status-specific payload inlined, nothing else. */
function detailedTask(task) {
	const detailed = taskFields(task);
	if (task.status === 'input_required') {
		detailed.inputRequests = Object.fromEntries(Object.entries(book.pending(task)).map(([key, ask]) => [key,
			{ method: 'elicitation/create', params: { mode: 'form', message: ask.message, requestedSchema: ask.requestedSchema } }]));
	}
	else if (task.status === 'completed') {
		detailed.result = { ...task.result, resultType: 'complete' };
	}
	else if (task.status === 'failed') {
		detailed.error = task.error;
	}
	return detailed;
}

function declaresTasks(params) {
	const extensions = params?._meta?.[META_CAPABILITIES]?.extensions;
	return !!extensions && typeof extensions === 'object' && typeof extensions[TASKS] === 'object' && extensions[TASKS] !== null;
}

/** A direct run of a task tool: the same work, awaited; a failed outcome is a JSON-RPC error. */
async function runDirectly(tool, args) {
	book.execution(tool, args);
	counters.execution(tool, args);
	const program = PROGRAMS[tool];
	await new Promise(resolve => setTimeout(resolve, program.durationMs(args)));
	const outcome = program.finish(args, {}, null);
	if (outcome.status === 'failed') {
		throw new RpcError(outcome.error.code, outcome.error.message, outcome.error.data);
	}
	return outcome.result;
}

function createTask(tool, args, context) {
	const task = book.create({ tool, args, context, ttlMs: ttlFromArgs(args), pollIntervalMs: pollIntervalFromArgs(args) });
	counters.execution(tool, args);
	return { resultType: 'task', ...taskFields(task) };
}

function checkArguments(tool, args) {
	if (args === null || typeof args !== 'object' || Array.isArray(args)) {
		throw new RpcError(-32602, `Invalid params: arguments of ${tool} must be an object`);
	}
	const schema = TOOLS.find(t => t.name === tool).inputSchema;
	for (const key of schema.required ?? []) {
		if (typeof args[key] !== 'string') {
			throw new RpcError(-32602, `Invalid params: ${tool} needs the string argument ${key}`);
		}
	}
}

/** SEP-2322 (2026-07-28 basic/patterns/mrtr): the input round first, the task on the retry. */
function callWithTaskAfterInput(params) {
	const answer = params.inputResponses?.user_name;
	if (answer === undefined) {
		return {
			resultType: 'input_required',
			inputRequests: {
				user_name: {
					method: 'elicitation/create',
					params: {
						mode: 'form',
						message: 'What is your name?',
						requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
					}
				}
			},
			requestState: Buffer.from(JSON.stringify({ tool: 'test_tool_with_task', round: 1 })).toString('base64')
		};
	}
	const userName = answer?.action === 'accept' ? String(answer.content?.name ?? '') : '(declined)';
	return createTask('test_tool_with_task', params.arguments ?? {}, { userName });
}

async function toolsCall(params) {
	const tool = params?.name;
	if (typeof tool !== 'string' || !TOOLS.some(t => t.name === tool)) {
		throw new RpcError(-32602, `Unknown tool: ${tool}`);
	}
	const args = params.arguments ?? {};
	checkArguments(tool, args);
	if (tool === 'greet') {
		book.execution(tool, args);
		counters.execution(tool, args);
		return text(`Hello, ${args.name}!`);
	}
	// 2026-07-28 tasks extension §Capability Negotiation: never a task to a client that did not
	// declare the extension on this request; -32021 when the tool cannot run without one
	if (!declaresTasks(params)) {
		if (TASK_REQUIRED.has(tool)) {
			throw missingExtension(`tools/call ${tool}`);
		}
		return runDirectly(tool, args);
	}
	if (tool === 'test_tool_with_task') {
		return callWithTaskAfterInput(params);
	}
	return createTask(tool, args, null);
}

function knownTask(params) {
	const task = book.get(params?.taskId);
	if (!task) {
		throw new RpcError(-32602, `Failed to retrieve task: Task not found: ${params?.taskId}`);
	}
	return task;
}

function tasksGet(params) {
	return detailedTask(knownTask(params));
}

function tasksUpdate(params) {
	const task = knownTask(params);
	const responses = params.inputResponses;
	if (responses === null || typeof responses !== 'object' || Array.isArray(responses)) {
		throw new RpcError(-32602, 'Invalid params: inputResponses must be an object');
	}
	book.answer(task.taskId, responses);
	return {};
}

function tasksCancel(params) {
	const task = knownTask(params);
	book.cancel(task.taskId);
	return {};
}

const HANDLERS = {
	'server/discover': () => ({
		supportedVersions: [VERSION],
		capabilities: { tools: {}, extensions: { [TASKS]: {} } },
		ttlMs: 0,
		cacheScope: 'private'
	}),
	'tools/list': () => ({ tools: TOOLS, ttlMs: 0, cacheScope: 'private' }),
	'tools/call': toolsCall,
	'tasks/get': tasksGet,
	'tasks/update': tasksUpdate,
	'tasks/cancel': tasksCancel
};

/** Methods only a client that declared the extension may use (2026-07-28 tasks extension §Protocol Errors). */
const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** Which body field the Mcp-Name header mirrors (2026-07-28 transports §Standard Request Headers, SEP-2663 §Routing Headers). */
const NAME_SOURCE = {
	'tools/call': 'name',
	'prompts/get': 'name',
	'resources/read': 'uri',
	'tasks/get': 'taskId',
	'tasks/update': 'taskId',
	'tasks/cancel': 'taskId'
};

function headerValue(req, name) {
	const value = req.headers[name];
	return typeof value === 'string' ? value.replace(/^[ \t]+|[ \t]+$/g, '') : undefined;
}

/** A header value in the Base64 sentinel form `=?base64?...?=` decoded, else as is; null when malformed. */
function decodeHeader(value) {
	const match = /^=\?base64\?(.*)\?=$/.exec(value);
	if (!match) {
		return value;
	}
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(match[1])) {
		return null;
	}
	return Buffer.from(match[1], 'base64').toString('utf8');
}

/** The envelope and header checks of 2026-07-28 basic §_meta and transports §Server Validation. */
function validate(req, message) {
	const params = message.params;
	const meta = params?._meta;
	const version = meta?.[META_VERSION];
	if (typeof version !== 'string') {
		if (message.method === 'initialize') {
			const requested = String(params?.protocolVersion ?? '');
			throw new RpcError(-32022, `Unsupported protocol version: ${requested}`, { supported: [VERSION], requested }, 400);
		}
		throw new RpcError(-32602, `Invalid params: missing _meta key ${META_VERSION}`, undefined, 400);
	}
	if (version !== VERSION) {
		throw new RpcError(-32022, `Unsupported protocol version: ${version}`, { supported: [VERSION], requested: version }, 400);
	}
	const headerVersion = headerValue(req, 'mcp-protocol-version');
	if (headerVersion !== version) {
		throw headerMismatch(`MCP-Protocol-Version is ${headerVersion ?? '(missing)'}, _meta says ${version}`);
	}
	const method = headerValue(req, 'mcp-method');
	if (method !== message.method) {
		throw headerMismatch(`Mcp-Method is ${method ?? '(missing)'}, the body's method is ${message.method}`);
	}
	const field = NAME_SOURCE[message.method];
	const bodyName = field === undefined ? undefined : params?.[field];
	if (typeof bodyName === 'string') {
		const raw = headerValue(req, 'mcp-name');
		const name = raw === undefined ? undefined : decodeHeader(raw);
		if (name !== bodyName) {
			throw headerMismatch(`Mcp-Name is ${raw ?? '(missing)'}, the body's params.${field} is ${bodyName}`);
		}
	}
	const capabilities = meta[META_CAPABILITIES];
	if (capabilities === null || typeof capabilities !== 'object') {
		throw new RpcError(-32602, `Invalid params: missing _meta key ${META_CAPABILITIES}`, undefined, 400);
	}
}

function withServerInfo(result) {
	return { resultType: 'complete', ...result, _meta: { ...result._meta, [META_SERVER_INFO]: SERVER_INFO } };
}

function sseEvent(message) {
	return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

function startStream(res) {
	res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive' });
	res.flushHeaders();
}

/**
 * Sends the answer to a request, as one SSE event with --sse (status 200 only), else as JSON;
 * an armed cut of the tool (POST /admin/cut) drops it instead.
 */
async function respond(res, status, message, tag) {
	if (sse && status === 200) {
		startStream(res);
	}
	if (await cuts.afterBody(tag)) {
		return;
	}
	if (res.headersSent) {
		res.end(sseEvent(message));
	}
	else {
		sendJson(res, status, message);
	}
}

/** 2026-07-28 basic/patterns/subscriptions, with the tasks extension's taskIds filter. */
function openSubscription(res, message) {
	const filter = message.params?.notifications ?? {};
	const wanted = Array.isArray(filter.taskIds) ? filter.taskIds.filter(id => typeof id === 'string') : undefined;
	if (wanted !== undefined && !declaresTasks(message.params)) {
		throw missingExtension('notifications/tasks on subscriptions/listen');
	}
	const taskIds = (wanted ?? []).filter(id => book.get(id));
	startStream(res);
	const meta = { [META_SUBSCRIPTION]: message.id };
	res.write(sseEvent({
		jsonrpc: '2.0',
		method: 'notifications/subscriptions/acknowledged',
		params: { _meta: meta, notifications: wanted === undefined ? {} : { taskIds } }
	}));
	const listener = { res, id: message.id, taskIds: new Set(taskIds) };
	listeners.add(listener);
	res.on('close', () => listeners.delete(listener));
	for (const taskId of taskIds) {
		res.write(sseEvent(taskNotification(book.get(taskId), message.id)));
	}
}

function taskNotification(task, subscriptionId) {
	return { jsonrpc: '2.0', method: 'notifications/tasks', params: { ...detailedTask(task), _meta: { [META_SUBSCRIPTION]: subscriptionId } } };
}

function notify(task) {
	for (const listener of listeners) {
		if (listener.taskIds.has(task.taskId) && !listener.res.writableEnded) {
			listener.res.write(sseEvent(taskNotification(task, listener.id)));
		}
	}
}

async function handleMcp(req, res) {
	trackConnection(req);
	if (req.method !== 'POST') {
		res.writeHead(405, { Allow: 'POST' }).end();
		return;
	}
	let message;
	try {
		message = JSON.parse(await readBody(req));
	}
	catch {
		sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
		return;
	}
	if (Array.isArray(message) || message === null || typeof message !== 'object') {
		sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: one JSON-RPC message per POST' }, id: null });
		return;
	}
	counters.message(message);
	if (typeof message.method !== 'string' || message.id === undefined) {
		// a notification (or a stray response): accepted, nothing to answer
		res.writeHead(202).end();
		return;
	}
	const tag = cuts.register(req, res, [message], sse ? 'headers' : 'nothing');
	try {
		validate(req, message);
		if (TASK_METHODS.has(message.method) && !declaresTasks(message.params)) {
			throw missingExtension(message.method);
		}
		if (message.method === 'subscriptions/listen') {
			openSubscription(res, message);
			return;
		}
		const handler = HANDLERS[message.method];
		if (!handler) {
			throw new RpcError(-32601, `Method not found: ${message.method}`, undefined, 404);
		}
		const result = await handler(message.params ?? {});
		if (requestCuts.take(message)) {
			res.socket?.destroy();
			return;
		}
		await respond(res, 200, { jsonrpc: '2.0', id: message.id, result: withServerInfo(result) }, tag);
	}
	catch (err) {
		if (!(err instanceof RpcError)) {
			throw err;
		}
		await respond(res, err.status, { jsonrpc: '2.0', id: message.id, error: err.toJson() }, tag);
	}
}

serveMcp({
	port,
	flags,
	handle: (req, res, url) => handleTaskAdmin(req, res, url, { book, requestCuts }),
	admin: {
		counters,
		cuts,
		counts: () => counters.snapshot({ executions: book.executionCounts(), tasks: book.statusCounts() }),
		reset: () => {
			book.resetExecutions();
			requestCuts.reset();
		}
	},
	handleMcp
});
