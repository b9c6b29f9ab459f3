// Shared by the two task peers (tasks-server.mjs for the 2026-07-28 tasks extension,
// legacy-tasks-server.mjs for the 2025-11-25 experimental tasks): the task book (every task with
// its status, answers and outcome, optionally kept in a file so tasks survive a restart of the
// process), the programs the task tools run, the executions they count, and the cut of a whole
// request by method. Nothing in here knows either era's wire shapes.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

import { readBody, sendJson } from './peer-common.mjs';

export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** Task lifetime when neither the tool's arguments nor the request ask for one. */
export const DEFAULT_TTL_MS = 300_000;

/** Suggested polling interval when the tool's arguments do not set one. */
export const DEFAULT_POLL_INTERVAL_MS = 200;

function text(value) {
	return { content: [{ type: 'text', text: value }] };
}

function confirmQuestion(message) {
	return {
		message,
		requestedSchema: {
			type: 'object',
			properties: { confirm: { type: 'boolean', title: 'Confirm', description: 'Go ahead?' } },
			required: ['confirm']
		}
	};
}

function accepted(answer) {
	return answer?.action === 'accept' && answer.content?.confirm === true;
}

/** The outcome a delete_record call ends with: its `outcome` argument picks one. */
function recordOutcome(args, answers) {
	if (args.confirm === true && !accepted(answers.confirm)) {
		return { status: 'completed', result: text(`Kept record ${args.id}: not confirmed`) };
	}
	if (args.outcome === 'tool_error') {
		return { status: 'completed', result: { ...text(`Could not delete record ${args.id}`), isError: true } };
	}
	if (args.outcome === 'protocol_error') {
		return { status: 'failed', error: { code: -32603, message: `Internal error while deleting record ${args.id}` } };
	}
	return { status: 'completed', result: text(`Deleted record ${args.id}`) };
}

/**
 * What each task tool does, as data a restarted process can pick up again: `asks(args)` the
 * questions it needs answered first (key -> {message, requestedSchema}, all asked at once),
 * `durationMs(args)` how long it works once they are answered, and `finish(args, answers,
 * context)` its outcome, {status: 'completed', result} or {status: 'failed', error} (a JSON-RPC
 * error). A tool error is a completed result with isError; how each era reports it is the
 * server's business.
 */
export const PROGRAMS = {
	slow_compute: {
		asks: () => ({}),
		durationMs: args => Math.round(1000 * Math.max(0, Number(args.seconds ?? 1))),
		finish: args => ({ status: 'completed', result: text(`Computed ${args.label ?? 'value'} in ${Number(args.seconds ?? 1)}s`) })
	},
	failing_job: {
		asks: () => ({}),
		durationMs: args => Number(args.durationMs ?? 1000),
		finish: () => ({ status: 'completed', result: { ...text('failing_job failed: the job reported an error'), isError: true } })
	},
	protocol_error_job: {
		asks: () => ({}),
		durationMs: args => Number(args.durationMs ?? 300),
		finish: () => ({ status: 'failed', error: { code: -32603, message: 'protocol_error_job: internal failure' } })
	},
	confirm_delete: {
		asks: args => ({ confirm: confirmQuestion(`Delete ${args.filename ?? 'the file'}?`) }),
		durationMs: () => 100,
		finish: (args, answers) => ({
			status: 'completed',
			result: text(accepted(answers.confirm) ? `Deleted ${args.filename}` : `Kept ${args.filename}: not confirmed`)
		})
	},
	multi_input: {
		asks: () => ({
			name: {
				message: 'What is your name?',
				requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] }
			},
			confirm: confirmQuestion('Proceed with the multi-input job?')
		}),
		durationMs: () => 100,
		finish: (args, answers) => ({
			status: 'completed',
			result: text(`name=${answers.name?.content?.name ?? '(none)'}, confirmed=${accepted(answers.confirm)}`)
		})
	},
	delete_record: {
		asks: args => (args.confirm === true ? { confirm: confirmQuestion(`Delete record ${args.id}?`) } : {}),
		durationMs: args => Number(args.durationMs ?? 1000),
		finish: recordOutcome
	},
	test_tool_with_task: {
		asks: () => ({}),
		durationMs: () => 200,
		finish: (args, answers, context) => ({ status: 'completed', result: text(`Hello, ${context?.userName ?? 'stranger'}!`) })
	}
};

/** `ttlMs` from the tool's arguments: a positive integer, `null` (unlimited), or absent. */
export function ttlFromArgs(args) {
	if (args.ttlMs === null) {
		return null;
	}
	return Number.isInteger(args.ttlMs) && args.ttlMs > 0 ? args.ttlMs : undefined;
}

/** `pollIntervalMs` from the tool's arguments, when a positive integer. */
export function pollIntervalFromArgs(args) {
	return Number.isInteger(args.pollIntervalMs) && args.pollIntervalMs > 0 ? args.pollIntervalMs : undefined;
}

/**
 * Every task of the peer, and every execution it counted. With a file (MCPX_TASK_STORE), both
 * are written through on each change (write to a temporary file, then rename), and read back at
 * start: a restarted process knows the tasks of the one before, finishes the work that was due
 * meanwhile, and keeps counting executions from where it was. Without a file they last as long
 * as the process.
 *
 * A task record: {taskId, tool, args, context, status, statusMessage, createdAt, lastUpdatedAt,
 * createdAtMs, ttlMs, pollIntervalMs, answers, finishAt, result, error, sessionId}.
 */
export class TaskBook {
	constructor({ file, onChange, log = () => {} }) {
		this.file = file;
		this.onChange = onChange;
		this.log = log;
		this.tasks = new Map();
		this.executions = [];
		this.timers = new Map();
		this.load();
		const sweeper = setInterval(() => this.sweep(), 1000);
		sweeper.unref();
	}

	load() {
		if (!this.file || !existsSync(this.file)) {
			return;
		}
		const state = JSON.parse(readFileSync(this.file, 'utf8'));
		for (const task of state.tasks ?? []) {
			this.tasks.set(task.taskId, task);
		}
		this.executions = state.executions ?? [];
		for (const task of this.tasks.values()) {
			this.advance(task);
		}
		this.log(`loaded ${this.tasks.size} task(s) and ${this.executions.length} execution(s) from ${this.file}`);
	}

	persist() {
		if (!this.file) {
			return;
		}
		const temporary = `${this.file}.${process.pid}.tmp`;
		writeFileSync(temporary, JSON.stringify({ version: 1, tasks: [...this.tasks.values()], executions: this.executions }));
		renameSync(temporary, this.file);
	}

	/** Counts one execution of a tool body (a task started, or a direct call run). */
	execution(tool, args, taskId) {
		this.executions.push({ tool, args, taskId: taskId ?? null, at: Date.now(), pid: process.pid });
		this.persist();
	}

	executionCounts() {
		const counts = {};
		for (const { tool } of this.executions) {
			counts[tool] = (counts[tool] ?? 0) + 1;
		}
		return counts;
	}

	resetExecutions() {
		this.executions = [];
		this.persist();
	}

	/**
	 * Creates a task, counts its execution and writes both through before returning, so a
	 * tasks/get for it resolves from the moment its id is known (2026-07-28 tasks extension
	 * §Task Creation: durably created before the CreateTaskResult). Returns a copy of the seed
	 * state, `working` (2025-11-25 basic/utilities/tasks §Task Status Lifecycle: tasks begin in
	 * working); a tool that asks first is input_required from the next look on.
	 */
	create({ tool, args, context, ttlMs, pollIntervalMs, sessionId }) {
		if (!PROGRAMS[tool]) {
			throw new Error(`no task program for ${tool}`);
		}
		const now = Date.now();
		const iso = new Date(now).toISOString();
		const task = {
			taskId: randomBytes(16).toString('hex'),
			tool,
			args,
			context: context ?? null,
			status: 'working',
			statusMessage: `${tool} started`,
			createdAt: iso,
			lastUpdatedAt: iso,
			createdAtMs: now,
			ttlMs: ttlMs === undefined ? DEFAULT_TTL_MS : ttlMs,
			pollIntervalMs: pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
			answers: {},
			finishAt: null,
			sessionId: sessionId ?? null
		};
		this.tasks.set(task.taskId, task);
		this.executions.push({ tool, args, taskId: task.taskId, at: now, pid: process.pid });
		this.persist();
		const seed = structuredClone(task);
		this.advance(task);
		return seed;
	}

	/** The task, or undefined when unknown or past its ttl (then it is dropped). */
	get(taskId) {
		const task = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
		if (task && this.expired(task)) {
			this.drop(task.taskId);
			this.persist();
			return undefined;
		}
		return task;
	}

	all() {
		return [...this.tasks.values()].filter(task => !this.expired(task));
	}

	expired(task) {
		return task.ttlMs !== null && Date.now() >= task.createdAtMs + task.ttlMs;
	}

	/** The questions of the task not answered yet: key -> {message, requestedSchema}. */
	pending(task) {
		if (TERMINAL.has(task.status)) {
			return {};
		}
		const asks = PROGRAMS[task.tool].asks(task.args);
		return Object.fromEntries(Object.entries(asks).filter(([key]) => !(key in task.answers)));
	}

	/**
	 * Records answers to pending questions; keys not pending are ignored (2026-07-28 tasks
	 * extension §Task Update Requests). Returns the keys taken.
	 */
	answer(taskId, responses) {
		const task = this.get(taskId);
		if (!task) {
			return [];
		}
		const pending = this.pending(task);
		const taken = Object.keys(responses ?? {}).filter(key => key in pending);
		if (taken.length === 0) {
			return [];
		}
		for (const key of taken) {
			task.answers[key] = responses[key];
		}
		this.touch(task);
		this.advance(task);
		return taken;
	}

	/** Moves a task that is not terminal to cancelled, and stops its work. */
	cancel(taskId, statusMessage = 'Cancelled by request') {
		const task = this.get(taskId);
		if (!task || TERMINAL.has(task.status)) {
			return false;
		}
		this.stopTimer(taskId);
		task.status = 'cancelled';
		task.statusMessage = statusMessage;
		this.touch(task);
		return true;
	}

	/** Ends the work phase of a working task now (the outcome follows at once). */
	finishNow(taskId) {
		const task = this.get(taskId);
		if (!task || task.status !== 'working' || task.finishAt === null) {
			return false;
		}
		this.complete(taskId);
		return true;
	}

	/** Forgets every task (a server that lost them); executions stay counted. */
	forget() {
		const count = this.tasks.size;
		for (const taskId of [...this.tasks.keys()]) {
			this.drop(taskId);
		}
		this.persist();
		return count;
	}

	/** Moves a task on: asks while questions are pending, then works until finishAt, then finishes. */
	advance(task) {
		if (TERMINAL.has(task.status)) {
			return;
		}
		const pending = Object.keys(this.pending(task));
		if (pending.length > 0) {
			if (task.status !== 'input_required') {
				task.status = 'input_required';
				task.statusMessage = `Waiting for input: ${pending.join(', ')}`;
				this.touch(task);
			}
			return;
		}
		if (task.finishAt === null) {
			task.finishAt = Date.now() + PROGRAMS[task.tool].durationMs(task.args);
			task.status = 'working';
			task.statusMessage = `${task.tool} working`;
			this.touch(task);
		}
		this.stopTimer(task.taskId);
		const timer = setTimeout(() => this.complete(task.taskId), Math.max(0, task.finishAt - Date.now()));
		this.timers.set(task.taskId, timer);
	}

	complete(taskId) {
		this.stopTimer(taskId);
		const task = this.tasks.get(taskId);
		if (!task || TERMINAL.has(task.status)) {
			return;
		}
		const outcome = PROGRAMS[task.tool].finish(task.args, task.answers, task.context);
		task.status = outcome.status;
		if (outcome.result !== undefined) {
			task.result = outcome.result;
		}
		if (outcome.error !== undefined) {
			task.error = outcome.error;
		}
		task.statusMessage = outcome.status === 'failed' ? `Failed: ${outcome.error.message}`
			: outcome.result?.isError ? `${task.tool} reported an error` : `${task.tool} completed`;
		this.touch(task);
	}

	/** Stamps lastUpdatedAt, writes through and tells the listener (status notifications). */
	touch(task) {
		task.lastUpdatedAt = new Date().toISOString();
		this.persist();
		this.onChange?.(task);
	}

	sweep() {
		let dropped = 0;
		for (const task of [...this.tasks.values()]) {
			if (this.expired(task)) {
				this.drop(task.taskId);
				dropped++;
			}
		}
		if (dropped > 0) {
			this.persist();
		}
	}

	drop(taskId) {
		this.stopTimer(taskId);
		this.tasks.delete(taskId);
	}

	stopTimer(taskId) {
		const timer = this.timers.get(taskId);
		if (timer) {
			clearTimeout(timer);
			this.timers.delete(taskId);
		}
	}

	/** How many tasks are in each status. */
	statusCounts() {
		const counts = {};
		for (const task of this.all()) {
			counts[task.status] = (counts[task.status] ?? 0) + 1;
		}
		return counts;
	}
}

/**
 * Fault injection by JSON-RPC method: the next `times` requests of a method (optionally only
 * for one task id) lose their connection before a single byte of the HTTP response, after the
 * server has handled them (a tasks/get that was answered, a tasks/cancel that took effect).
 */
export class RequestCuts {
	constructor(counters) {
		this.counters = counters;
		this.armed = new Map(); // method -> { times, taskId }
	}

	reset() {
		this.armed.clear();
	}

	arm(method, times, taskId) {
		if (times > 0) {
			this.armed.set(method, { times, taskId: taskId ?? null });
		}
		else {
			this.armed.delete(method);
		}
	}

	/** Whether this request is to be cut; counts it down and counts the cut. */
	take(message) {
		const plan = this.armed.get(message?.method);
		if (!plan || (plan.taskId !== null && message.params?.taskId !== plan.taskId)) {
			return false;
		}
		plan.times--;
		if (plan.times <= 0) {
			this.armed.delete(message.method);
		}
		this.counters.cuts++;
		return true;
	}

	/**
	 * Makes a response drop its connection at its first write instead: the request is handled
	 * as usual, the client gets no status line.
	 */
	static dropAtFirstWrite(res) {
		const drop = () => {
			res.socket?.destroy();
			return res;
		};
		res.writeHead = drop;
		res.flushHeaders = () => {};
		res.setHeader = () => res;
		res.write = () => {
			drop();
			return true;
		};
		res.end = drop;
	}
}

/**
 * The admin endpoints both task peers add to those of peer-common.mjs. Returns true when it
 * answered the request.
 *   GET  /admin/tasks        -> {"tasks": [task records]}: every task the peer knows, with its tool,
 *                               arguments, status, answers, outcome and finishAt
 *   POST /admin/forget-tasks -> {"dropped": n}: forgets every task (a server that lost them); the
 *                               file store too. Executions stay counted
 *   POST /admin/finish       {"taskId": "<id>"} -> {"finished": bool}: ends a working task's work now
 *   POST /admin/cancel       {"taskId": "<id>"} -> {"cancelled": bool}: the server cancels a task that
 *                               has not ended, of its own accord (no tasks/cancel came)
 *   POST /admin/cut-request  {"method": "<json-rpc method>", "times": n, "taskId": "<id>"?} -> the
 *                               next n requests of that method (of that task, if given) are handled,
 *                               then their connection is dropped before any byte of the response
 *   GET  /admin/executions   -> {"executions": [{"tool", "args", "taskId", "at", "pid"}], "dropped": 0}:
 *                               every execution, kept in the file store across restarts
 */
export async function handleTaskAdmin(req, res, url, { book, requestCuts }) {
	const route = `${req.method} ${url.pathname}`;
	const body = async () => {
		const raw = await readBody(req);
		return raw.trim() ? JSON.parse(raw) : {};
	};
	if (route === 'GET /admin/tasks') {
		sendJson(res, 200, { tasks: book.all() });
	}
	else if (route === 'POST /admin/forget-tasks') {
		sendJson(res, 200, { ok: true, dropped: book.forget() });
	}
	else if (route === 'POST /admin/finish') {
		const { taskId } = await body();
		sendJson(res, 200, { ok: true, finished: book.finishNow(taskId) });
	}
	else if (route === 'POST /admin/cancel') {
		const { taskId } = await body();
		sendJson(res, 200, { ok: true, cancelled: book.cancel(taskId, 'Cancelled by the server') });
	}
	else if (route === 'POST /admin/cut-request') {
		const { method, times, taskId } = await body();
		if (typeof method !== 'string') {
			sendJson(res, 400, { error: 'body must be {"method": "<json-rpc method>", "times": n, "taskId": "<id>"?}' });
		}
		else {
			requestCuts.arm(method, Number(times ?? 1), taskId);
			sendJson(res, 200, { ok: true });
		}
	}
	else if (route === 'GET /admin/executions') {
		sendJson(res, 200, { executions: book.executions, dropped: 0 });
	}
	else {
		return false;
	}
	return true;
}
