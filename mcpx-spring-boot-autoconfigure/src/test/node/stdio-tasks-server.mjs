// Legacy-era (2025-11-25) stdio MCP test peer for the experimental tasks (2025-11-25
// basic/utilities/tasks) whose task store outlives its process: every task is kept in a file
// (task-common.mjs's TaskBook), so a process started after a killed one answers tasks/get and
// tasks/result for the tasks of the one before, and finishes the work that was due meanwhile.
// No SDK: the TypeScript SDK's task runtime keeps its tasks in memory, which a restart loses.
//
//   node stdio-tasks-server.mjs
//   env MCPX_TASK_STORE=<file>  the task book (tasks and executions), kept across processes
//   env MCPX_STDIO_LOG=<file>   each start ({"type":"start"}) and each execution ({"type":"execution",
//                               "tool":..,"args":..}) appended, one JSON object per line with the pid,
//                               in the format of stdio-server.mjs (StdioPeer counts them)
//
// Newline-delimited JSON-RPC on stdin/stdout (2025-11-25 basic/transports §stdio). Capabilities:
// tools, and tasks.list, tasks.cancel, tasks.requests.tools.call. Tools:
//   delete_record {id, durationMs?, pollIntervalMs?, ttlMs?}  taskSupport optional, destructive,
//        counted; works durationMs (default 1000), then answers "Deleted record <id>". Called
//        without `task`, it runs directly and answers after durationMs.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

import { PROGRAMS, TERMINAL, TaskBook, pollIntervalFromArgs, ttlFromArgs } from './task-common.mjs';

const LOG = process.env.MCPX_STDIO_LOG;

function record(entry) {
	if (LOG) {
		appendFileSync(LOG, JSON.stringify({ ...entry, pid: process.pid, at: Date.now() }) + '\n');
	}
}

record({ type: 'start' });

/** Requests waiting in tasks/result for their task to end: taskId -> [resolve]. */
const waiting = new Map();
const book = new TaskBook({
	file: process.env.MCPX_TASK_STORE,
	onChange: task => {
		if (TERMINAL.has(task.status)) {
			for (const resolve of waiting.get(task.taskId) ?? []) {
				resolve();
			}
			waiting.delete(task.taskId);
		}
	}
});

const TOOLS = [{
	name: 'delete_record',
	description: 'Deletes a record, counted (taskSupport optional)',
	inputSchema: {
		type: 'object',
		properties: { id: { type: 'string' }, durationMs: { type: 'number' } },
		required: ['id']
	},
	annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
	execution: { taskSupport: 'optional' }
}];

function send(message) {
	process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
}

/** The task as 2025-11-25 §Task Status describes it (tasks/get's result, CreateTaskResult's task). */
function wire(task) {
	return {
		taskId: task.taskId,
		status: task.status,
		statusMessage: task.statusMessage,
		createdAt: task.createdAt,
		lastUpdatedAt: task.lastUpdatedAt,
		ttl: task.ttlMs,
		pollInterval: task.pollIntervalMs
	};
}

class RpcError extends Error {
	constructor(code, message) {
		super(message);
		this.code = code;
	}
}

function taskOf(params) {
	const task = book.get(params?.taskId);
	if (!task) {
		// 2025-11-25 basic/utilities/tasks §Error Handling: an unknown task id is -32602
		throw new RpcError(-32602, 'Task not found');
	}
	return task;
}

/** 2025-11-25 §Result Retrieval: blocks until the task is terminal, then what the call would have answered. */
async function result(params) {
	let task = taskOf(params);
	while (!TERMINAL.has(task.status)) {
		await new Promise(resolve => waiting.set(task.taskId, [...(waiting.get(task.taskId) ?? []), resolve]));
		task = taskOf(params);
	}
	if (task.error) {
		throw new RpcError(task.error.code, task.error.message);
	}
	if (task.status === 'cancelled') {
		throw new RpcError(-32603, 'The task was cancelled');
	}
	return { ...task.result, _meta: { 'io.modelcontextprotocol/related-task': { taskId: task.taskId } } };
}

async function call(params) {
	const tool = params?.name;
	if (!TOOLS.some(known => known.name === tool)) {
		throw new RpcError(-32602, `Unknown tool: ${tool}`);
	}
	const args = params.arguments ?? {};
	record({ type: 'execution', tool, args: { key: String(args.id) } });
	if (params.task) {
		const ttlFromTool = ttlFromArgs(args);
		const seed = book.create({
			tool,
			args,
			ttlMs: ttlFromTool !== undefined ? ttlFromTool : (params.task.ttl ?? undefined),
			pollIntervalMs: pollIntervalFromArgs(args)
		});
		return { task: wire(seed) };
	}
	book.execution(tool, args);
	await new Promise(resolve => setTimeout(resolve, PROGRAMS[tool].durationMs(args)));
	return PROGRAMS[tool].finish(args, {}).result;
}

async function handle(message) {
	switch (message.method) {
		case 'initialize':
			return {
				protocolVersion: '2025-11-25',
				capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
				serverInfo: { name: 'mcpx-stdio-tasks-peer', version: '1.0.0' }
			};
		case 'ping':
			return {};
		case 'tools/list':
			return { tools: TOOLS };
		case 'tools/call':
			return call(message.params);
		case 'tasks/get':
			return wire(taskOf(message.params));
		case 'tasks/result':
			return result(message.params);
		case 'tasks/list':
			return { tasks: book.all().map(wire) };
		case 'tasks/cancel': {
			const task = taskOf(message.params);
			if (TERMINAL.has(task.status)) {
				throw new RpcError(-32602, `Task ${task.taskId} is already ${task.status}`);
			}
			book.cancel(task.taskId);
			return wire(task);
		}
		default:
			throw new RpcError(-32601, `Method not found: ${message.method}`);
	}
}

const lines = createInterface({ input: process.stdin });
lines.on('line', line => {
	if (!line.trim()) {
		return;
	}
	const message = JSON.parse(line);
	if (message.id === undefined || message.method === undefined) {
		return; // a notification, or an answer to a request this server never sends
	}
	handle(message).then(
		answer => send({ id: message.id, result: answer }),
		error => send({ id: message.id, error: { code: error.code ?? -32603, message: error.message } }));
});
lines.on('close', () => process.exit(0));
