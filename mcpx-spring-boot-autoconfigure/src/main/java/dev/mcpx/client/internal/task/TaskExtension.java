package dev.mcpx.client.internal.task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.session.InputRounds;
import dev.mcpx.client.model.McpTaskStatus;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a 2026-07-28 task (the tasks extension, SEP-2663) is followed with beside the 2025-11-25
 * way: its outcome comes inline in {@code tasks/get} (§Task Polling: {@code result} of a
 * completed task, {@code error} of a failed one; there is no {@code tasks/result}), and its input
 * requests come there too, answered through the application's input handler and sent with
 * {@code tasks/update} (§Task Update Requests). Each key is asked of the application once and
 * sent until the server acknowledged it (the server ignores keys already answered, so a
 * {@code tasks/update} whose answer was lost may be sent again).
 */
final class TaskExtension {

	private final String upstream;

	private final InputRounds inputs;

	private final JsonRpc jsonRpc;

	TaskExtension(String upstream, InputRounds inputs, JsonRpc jsonRpc) {
		this.upstream = upstream;
		this.inputs = inputs;
		this.jsonRpc = jsonRpc;
	}

	/**
	 * The call's outcome, when the state carries it: a completed task's {@code result}, exactly
	 * what the call would have returned (§Task Polling, rule 3).
	 * @return the result, absent when the state carries none (not terminal, or a state that
	 * did not come from {@code tasks/get})
	 * @throws McpJsonRpcException for a failed task: its {@code error}, as the call would have
	 * failed (§Error Handling, Task Execution Errors)
	 */
	@Nullable JsonNode outcome(FollowedTask task, TaskState state) {
		JsonNode detail = state.detail();
		if (detail == null) {
			return null;
		}
		if (state.status() == McpTaskStatus.COMPLETED) {
			return detail;
		}
		if (state.status() == McpTaskStatus.FAILED) {
			throw error(task, detail);
		}
		return null;
	}

	private McpException error(FollowedTask task, JsonNode error) {
		JsonNode code = error.get("code");
		JsonNode message = error.get("message");
		if (code == null || !code.isIntegralNumber() || message == null || !message.isString()) {
			return new McpProtocolException(this.upstream, "the tasks/get answer of failed task " + task.taskId()
					+ " carries an error without an integer code and a message (2026-07-28 tasks extension §Task "
					+ "Polling: the JSON-RPC error of the call)", null);
		}
		return new McpJsonRpcException(this.upstream, McpMethods.TOOLS_CALL, code.asInt(), message.stringValue(),
				error.get("data"));
	}

	/**
	 * The {@code tasks/update} parameters answering what the task asks that the server has not
	 * acknowledged yet; each new key is asked of the input handler now.
	 * @return the parameters and the keys they answer, absent when there is nothing to send
	 * @throws dev.mcpx.client.error.McpInputRequiredException when the client has no input
	 * handler, or one that does not answer that kind of input
	 */
	@Nullable Update update(FollowedTask task, TaskState state) {
		JsonNode requests = state.detail();
		if (requests == null || state.status() != McpTaskStatus.INPUT_REQUIRED) {
			return null;
		}
		ObjectNode params = this.jsonRpc.object();
		params.put("taskId", task.taskId());
		ObjectNode responses = params.putObject("inputResponses");
		List<String> keys = new ArrayList<>();
		for (Map.Entry<String, JsonNode> request : requests.properties()) {
			String key = request.getKey();
			FollowedTask.Answer known = task.answer(key);
			if (known == null) {
				// §Task Update Requests: each entry is treated as the equivalent standalone request
				JsonNode answer = this.inputs.answer(key, request.getValue(), McpMethods.TOOLS_CALL);
				task.answered(key, answer);
				known = new FollowedTask.Answer(answer, false);
			}
			if (!known.delivered()) {
				responses.set(key, known.value());
				keys.add(key);
			}
		}
		return keys.isEmpty() ? null : new Update(params, keys);
	}

	/**
	 * One {@code tasks/update}.
	 * @param params its parameters
	 * @param keys the input request keys it answers
	 */
	record Update(ObjectNode params, List<String> keys) {
	}

}
