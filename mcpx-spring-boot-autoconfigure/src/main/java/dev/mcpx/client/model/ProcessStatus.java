package dev.mcpx.client.model;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What an operator wants to know about the server process of a stdio upstream. Safe to
 * show: no argument or environment value.
 *
 * @param command the program, without its arguments
 * @param pid the process id of the running server, absent when none runs
 * @param startedAt when the running server started, absent when none runs
 * @param restarts how often the server was started again after its first start
 * @param lastExitCode the exit code of the last server process that ended, absent before
 * the first exit
 * @param lastExit how the last server process ended, absent before the first exit
 * @param downUntil when the restart budget is exhausted: when starting is tried again
 */
public record ProcessStatus(String command, @Nullable Long pid, @Nullable Instant startedAt, long restarts,
		@Nullable Integer lastExitCode, @Nullable String lastExit, @Nullable Instant downUntil) {
}
