package dev.mcpx.client.internal.assembly;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.event.McpEraDetectedEvent;
import dev.mcpx.client.event.McpEventListener;
import dev.mcpx.client.internal.catalogue.Catalogue;
import dev.mcpx.client.internal.events.McpEvents;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.Redaction;
import dev.mcpx.client.internal.recovery.RecoveringExecutor;
import dev.mcpx.client.internal.session.BackgroundTasks;
import dev.mcpx.client.internal.session.EraDetectingSession;
import dev.mcpx.client.internal.session.Exchange;
import dev.mcpx.client.internal.session.InputRounds;
import dev.mcpx.client.internal.session.LegacySession;
import dev.mcpx.client.internal.session.ListenLoop;
import dev.mcpx.client.internal.session.ModernSession;
import dev.mcpx.client.internal.session.ProgressRoutes;
import dev.mcpx.client.internal.session.ProtocolSession;
import dev.mcpx.client.internal.session.ServerLog;
import dev.mcpx.client.internal.session.ServerNotifications;
import dev.mcpx.client.internal.session.ServerRequests;
import dev.mcpx.client.internal.session.SessionSettings;
import dev.mcpx.client.internal.session.SessionSetup;
import dev.mcpx.client.internal.session.Subscriptions;
import dev.mcpx.client.internal.task.TaskAugment;
import dev.mcpx.client.internal.task.TaskFollower;
import dev.mcpx.client.internal.transport.McpTransport;
import dev.mcpx.client.internal.transport.Watchdog;
import dev.mcpx.client.internal.transport.stdio.StdioTransport;
import dev.mcpx.client.model.ProcessStatus;
import dev.mcpx.client.model.ProtocolEra;
import tools.jackson.databind.json.JsonMapper;

/**
 * Builds a client's parts from its settings, in the manner of OkHttp's
 * {@code RealCall.getResponseWithInterceptorChain}: the whole pipeline in one method, from
 * the wire up, each part built once, in order, complete, and nothing changed after
 * (see {@code docs/architecture.md}, "Assembly").
 */
public final class ClientAssembly {

	private ClientAssembly() {
	}

	/**
	 * Builds every part of one client. Nothing connects: the client does on first use.
	 * @param s the client's settings
	 * @return the parts, for the client API to hold
	 */
	public static ClientParts assemble(ClientSettings s) {
		JsonRpc jsonRpc = new JsonRpc(s.jsonMapper());
		Watchdog watchdog = new Watchdog();
		BackgroundTasks background = new BackgroundTasks(s.name());
		Redaction redaction = new Redaction();
		McpTransport transport = Transports.of(s, jsonRpc, watchdog, redaction);
		ClientStats stats = new ClientStats(s.wire().shown(), s.clock(), processOf(transport));
		McpEvents events = new McpEvents(listeners(stats, s.eventListeners()));
		Catalogue catalogue = new Catalogue(s.name(), s.catalogueTtl(), s.clock(), events);
		ServerRequests serverRequests = new ServerRequests(s.name(), jsonRpc, s.inputAnswers(), s.inputHandlerTimeout(),
				redaction, background);
		ProgressRoutes progress = new ProgressRoutes(s.name());
		Subscriptions subscriptions = new Subscriptions(s.name(), jsonRpc, background);
		ServerLog serverLog = new ServerLog(s.name(), redaction, s.serverLogLevel());
		ServerNotifications notifications = new ServerNotifications(catalogue::listChanged, serverLog, subscriptions,
				s.notificationListener());
		Exchange exchange = new Exchange(s.name(), transport, jsonRpc, watchdog, background, notifications,
				serverRequests, redaction, progress);
		ProtocolSession session = session(s, exchange, events, serverLog, subscriptions);
		RecoveringExecutor executor = new RecoveringExecutor(s.name(), session, s.recoveryPolicy(), s.replayGate(),
				catalogue, events, s.credentialsRefresh());
		TaskFollower tasks = new TaskFollower(s.name(), executor, jsonRpc, new InputRounds(s.name(), s.inputAnswers()));
		TaskAugment taskAugment = new TaskAugment(s.taskAugmentation(), catalogue.tools(), executor);
		ListenLoop listenLoop = s.listenForChanges()
				? new ListenLoop(s.name(), session, subscriptions, serverLog, s.inputAnswers() != null) : null;
		return new ClientParts(s, jsonRpc, stats, events, catalogue, session, executor, tasks, taskAugment, listenLoop, progress,
				subscriptions,
				serverRequests.declaresRoots(), List.of(watchdog, background, serverRequests, transport));
	}

	/**
	 * The mapper of every client built without one: a Jackson 3 mapper is immutable and
	 * thread-safe, and each costs tens of kilobytes of caches once used.
	 * @return the shared mapper
	 */
	public static JsonMapper defaultJsonMapper() {
		return DefaultMapper.INSTANCE;
	}

	/**
	 * The era's session: fixed by configuration, or detected (2026-07-28 basic/versioning
	 * §Backward Compatibility), each detection an event. A legacy session's state (log level,
	 * subscriptions) is set up again after every handshake.
	 */
	private static ProtocolSession session(ClientSettings s, Exchange exchange, McpEvents events, ServerLog serverLog,
			Subscriptions subscriptions) {
		SessionSettings settings = new SessionSettings(s.name(), s.clientInfo(), s.requestTimeout(),
				s.handshakeTimeout(), s.maxMessageBytes());
		LegacySession legacy = new LegacySession(settings, exchange, SessionSetup.of(List.of(serverLog, subscriptions)));
		ModernSession modern = new ModernSession(settings, exchange, s.inputAnswers(), s.era() == ProtocolEra.MODERN,
				subscriptions, s.serverLogLevel(), s.recoveryPolicy().taskExtension());
		if (s.era() != null) {
			return (s.era() == ProtocolEra.LEGACY) ? legacy : modern;
		}
		// A probe left unanswered identifies a legacy server on stdio only (2026-07-28
		// basic/transports/stdio §Backward Compatibility).
		return new EraDetectingSession(s.name(), legacy, modern, s.wire() instanceof ClientSettings.Stdio,
				(state, previous) -> events
					.publish(new McpEraDetectedEvent(s.name(), state.era(), state.protocolVersion(), previous)));
	}

	/** The client's own status first, then the application's listeners, in order. */
	private static List<McpEventListener> listeners(ClientStats stats, List<McpEventListener> application) {
		List<McpEventListener> listeners = new ArrayList<>(application.size() + 1);
		listeners.add(stats);
		listeners.addAll(application);
		return listeners;
	}

	/** The server process a stdio upstream's status shows; HTTP has none. */
	private static Supplier<@Nullable ProcessStatus> processOf(McpTransport transport) {
		return (transport instanceof StdioTransport stdio) ? stdio::status : () -> null;
	}

	private static final class DefaultMapper {

		static final JsonMapper INSTANCE = JsonMapper.builder().build();

	}

}
