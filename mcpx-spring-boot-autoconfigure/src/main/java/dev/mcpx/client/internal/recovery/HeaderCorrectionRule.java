package dev.mcpx.client.internal.recovery;

import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpHeaderMismatchException;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.internal.protocol.ToolHeaders;
import dev.mcpx.client.internal.session.McpRequest;
import tools.jackson.databind.JsonNode;

/**
 * The upstream rejected a tool call's mirrored headers (-32020) before running it: the
 * client SHOULD list tools to check for changes to the tool's input schema, then retry
 * with the headers it now declares; when they are the same, the mismatch stands
 * (2026-07-28 transports/streamable-http §Client Behavior).
 */
final class HeaderCorrectionRule implements RecoveryRule {

	@Override
	public @Nullable FollowUp decide(Attempt failed, McpException failure, Recovery recovery) {
		McpRequest request = failed.request();
		String toolName = (request != null) ? request.toolName() : null;
		if (!(failure instanceof McpHeaderMismatchException mismatch) || request == null || toolName == null
				|| failed.on() == null) {
			return null;
		}
		if (failed.recovered()) {
			return FollowUp.giveUp(mismatch);
		}
		ToolHeaders declared;
		try {
			declared = recovery.tools().relearn(toolName);
		}
		catch (McpException ex) {
			mismatch.addSuppressed(ex);
			return FollowUp.giveUp(mismatch);
		}
		if (!declared.isValid()) {
			return FollowUp.giveUp(mismatch);
		}
		// a tools/call always carries params: the tool's name is one of them
		JsonNode params = Objects.requireNonNull(request.params(), "params");
		Map<String, String> headers = declared.headersFor(params.path("arguments"));
		if (headers.equals(request.headers())) {
			return FollowUp.giveUp(mismatch);
		}
		McpRequest corrected = new McpRequest(request.method(), request.params(), request.toolName(),
				request.timeout(), headers);
		String reason = "tool '" + request.toolName() + "' declares other header parameters now";
		recovery.reissued(request, ReplayCause.HEADERS_CORRECTED, reason);
		return FollowUp.retry(failed.resend(failed.on(), corrected, false, Rule.HEADER_CORRECTION),
				Rule.HEADER_CORRECTION, reason);
	}

}
