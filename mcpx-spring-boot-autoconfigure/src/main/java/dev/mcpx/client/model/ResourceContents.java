package dev.mcpx.client.model;

import org.jspecify.annotations.Nullable;

/**
 * The contents of a resource: either text or a base64-encoded blob.
 *
 * @param uri the resource URI
 * @param mimeType the MIME type
 * @param text the text, absent for binary contents
 * @param blob the base64-encoded bytes, absent for text contents
 */
public record ResourceContents(String uri, @Nullable String mimeType, @Nullable String text, @Nullable String blob) {
}
