/**
 * The task demo: a report that takes a while, compiled by an MCP server of its own as a task (2025-11-25
 * basic/utilities/tasks), followed by the application through the task journal so that its result arrives even
 * after the application was killed and started again.
 */
@NullMarked
package dev.mcpx.sample.tasks;

import org.jspecify.annotations.NullMarked;
