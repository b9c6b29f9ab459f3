package dev.mcpx.bench;

/**
 * An MCP endpoint the contenders call: legacy Streamable HTTP with sessions, one tool
 * {@code echo} answering {@code {"content":[{"type":"text","text":"hello"}],"isError":false}}
 * to the arguments {@code {"text":"hello"}}.
 */
interface Upstream extends AutoCloseable {

	/** The tool every contender calls. */
	String TOOL = "echo";

	/** Its only argument's value, echoed back as the result text. */
	String TEXT = "hello";

	/**
	 * The MCP endpoint.
	 * @return for example {@code http://127.0.0.1:40123/mcp}
	 */
	String url();

	/**
	 * How many {@code initialize} requests arrived so far.
	 * @return the count
	 */
	int initializeCount();

	/** Forgets every session, as a restart would: old session ids are answered 404. */
	void forgetSessions();

	/**
	 * The prefix of the names of the threads that serve requests, so their work can be told
	 * apart from the client's.
	 * @return a thread name prefix
	 */
	String[] threadNamePrefixes();

	@Override
	void close();

	/**
	 * Starts an upstream by its benchmark name.
	 * @param kind {@code fixed} (negligible cost) or {@code sdk} (the official Java SDK server)
	 * @return the running upstream
	 */
	static Upstream start(String kind) {
		return switch (kind) {
			case "fixed" -> FixedUpstream.start();
			case "sdk" -> SdkUpstream.start();
			default -> throw new IllegalArgumentException("Unknown upstream '" + kind + "'; fixed or sdk");
		};
	}

}
