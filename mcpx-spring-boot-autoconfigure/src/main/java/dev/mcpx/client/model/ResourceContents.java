package dev.mcpx.client.model;

/**
 * The contents of a resource: either text or a base64-encoded blob.
 *
 * @param uri the resource URI
 * @param mimeType the MIME type, or {@code null}
 * @param text the text, or {@code null} for binary contents
 * @param blob the base64-encoded bytes, or {@code null} for text contents
 */
public record ResourceContents(String uri, String mimeType, String text, String blob) {
}
