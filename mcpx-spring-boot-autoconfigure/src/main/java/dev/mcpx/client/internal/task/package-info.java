/**
 * Internal: tool calls that became tasks, followed to their outcome through their handle
 * (2025-11-25 basic/utilities/tasks): when a call asks for a task, polling, input, cancelling,
 * and what a failure on the way means once the task id is known. Not API: may change in any
 * release.
 */
@NullMarked
package dev.mcpx.client.internal.task;

import org.jspecify.annotations.NullMarked;
