package dev.mcpx.client.internal.protocol;

/**
 * MCP method names the client sends or answers.
 */
public final class McpMethods {

	public static final String INITIALIZE = "initialize";

	public static final String INITIALIZED = "notifications/initialized";

	public static final String CANCELLED = "notifications/cancelled";

	public static final String PING = "ping";

	public static final String PROGRESS = "notifications/progress";

	public static final String MESSAGE = "notifications/message";

	public static final String LOGGING_SET_LEVEL = "logging/setLevel";

	public static final String RESOURCES_UNSUBSCRIBE = "resources/unsubscribe";

	public static final String RESOURCES_UPDATED = "notifications/resources/updated";

	public static final String ROOTS_LIST_CHANGED = "notifications/roots/list_changed";

	public static final String COMPLETION_COMPLETE = "completion/complete";

	public static final String SERVER_DISCOVER = "server/discover";

	public static final String SUBSCRIPTIONS_LISTEN = "subscriptions/listen";

	public static final String TOOLS_LIST = "tools/list";

	public static final String TOOLS_CALL = "tools/call";

	public static final String PROMPTS_LIST = "prompts/list";

	public static final String PROMPTS_GET = "prompts/get";

	public static final String RESOURCES_LIST = "resources/list";

	public static final String RESOURCES_TEMPLATES_LIST = "resources/templates/list";

	public static final String RESOURCES_READ = "resources/read";

	public static final String RESOURCES_SUBSCRIBE = "resources/subscribe";

	public static final String TASKS_GET = "tasks/get";

	public static final String TASKS_RESULT = "tasks/result";

	public static final String TASKS_CANCEL = "tasks/cancel";

	/** 2026-07-28 tasks extension (SEP-2663) §Task Update Requests: answers to a task's input requests. */
	public static final String TASKS_UPDATE = "tasks/update";

	private McpMethods() {
	}

}
