package dev.mcpx.client.internal.assembly;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.internal.catalogue.Catalogue;
import dev.mcpx.client.internal.events.McpEvents;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.recovery.RecoveringExecutor;
import dev.mcpx.client.internal.session.ListenLoop;
import dev.mcpx.client.internal.session.ProgressRoutes;
import dev.mcpx.client.internal.session.ProtocolSession;
import dev.mcpx.client.internal.session.Subscriptions;
import dev.mcpx.client.internal.task.TaskAugment;
import dev.mcpx.client.internal.task.TaskFollower;

/**
 * What one client is made of, each part built once and complete by {@link ClientAssembly}:
 * what the client API calls, and what it releases when it closes.
 *
 * @param settings what the client was assembled from
 * @param jsonRpc the codec of the client's messages
 * @param stats the client's counts, for its status
 * @param events where the client's events go
 * @param catalogue the cached listings
 * @param session the era's session
 * @param executor the recovery loop over the session, the one way a request is sent
 * @param tasks follows tool calls that became tasks
 * @param taskAugment decides which tool calls ask for a task
 * @param listenLoop keeps the notification stream open, absent when listening is off
 * @param progress routes progress notifications to their calls
 * @param subscriptions the application's resource subscriptions
 * @param declaresRoots whether the client declared roots, so it may announce their change
 * @param resources released after the session is closed, in order: threads, then the
 * transport
 */
public record ClientParts(ClientSettings settings, JsonRpc jsonRpc, ClientStats stats, McpEvents events,
		Catalogue catalogue,
		ProtocolSession session, RecoveringExecutor executor, TaskFollower tasks, TaskAugment taskAugment,
		@Nullable ListenLoop listenLoop, ProgressRoutes progress,
		Subscriptions subscriptions, boolean declaresRoots, List<AutoCloseable> resources) {

	public ClientParts {
		resources = List.copyOf(resources);
	}

}
