package dev.mcpx.client.error;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * The server does not implement the protocol version of the request (JSON-RPC error
 * -32022, {@code UnsupportedProtocolVersion}; 2026-07-28 basic/versioning).
 */
public class McpUnsupportedVersionException extends McpJsonRpcException {

	/** The JSON-RPC code of an unsupported protocol version. */
	public static final int CODE = -32022;

	/**
	 * Creates an exception for an unsupported version.
	 * @param upstream the upstream name
	 * @param method the method of the rejected request
	 * @param errorMessage the server's message
	 * @param data the error's data, with {@code supported} and {@code requested}
	 */
	public McpUnsupportedVersionException(String upstream, String method, String errorMessage,
			@Nullable JsonNode data) {
		super(upstream, method, CODE, errorMessage, data);
	}

	/**
	 * The versions the server said it supports.
	 * @return the versions, empty when the server named none
	 */
	public List<String> supported() {
		List<String> versions = new ArrayList<>();
		if (data() != null) {
			for (JsonNode version : data().path("supported")) {
				if (version.isString()) {
					versions.add(version.stringValue());
				}
			}
		}
		return List.copyOf(versions);
	}

}
