/**
 * The task journal in an application: {@code mcpx.tasks.*}, the in-memory or JDBC {@code McpTaskStore}, its schema,
 * and the leases by which the replicas sharing a journal take up each other's orphaned tasks (docs/architecture.md,
 * "The task journal").
 */
@NullMarked
package dev.mcpx.autoconfigure.tasks;

import org.jspecify.annotations.NullMarked;
