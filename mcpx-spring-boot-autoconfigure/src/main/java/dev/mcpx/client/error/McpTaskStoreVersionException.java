package dev.mcpx.client.error;

/**
 * A journal row was written by a newer version of mcpx, in a format this version does not know. The row is left as
 * it is (a newer replica may follow it), never read as if it were of this format.
 */
public class McpTaskStoreVersionException extends McpTaskStoreException {

	private final int rowVersion;

	private final int supportedVersion;

	/**
	 * Creates an exception.
	 * @param upstream the upstream of the row
	 * @param taskId the task id of the row (a task id is no secret)
	 * @param rowVersion the format version the row was written in
	 * @param supportedVersion the newest format this version reads
	 */
	public McpTaskStoreVersionException(String upstream, String taskId, int rowVersion, int supportedVersion) {
		super(upstream, "Task " + taskId + " was journalled in format " + rowVersion + ", newer than format "
				+ supportedVersion + ", the newest this version of mcpx reads; left for a newer replica", null);
		this.rowVersion = rowVersion;
		this.supportedVersion = supportedVersion;
	}

	/**
	 * The format version the row was written in.
	 * @return the row's version
	 */
	public int rowVersion() {
		return this.rowVersion;
	}

	/**
	 * The newest format this version of mcpx reads.
	 * @return the supported version
	 */
	public int supportedVersion() {
		return this.supportedVersion;
	}

}
