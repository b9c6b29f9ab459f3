package dev.mcpx.client.model;

/**
 * A resource the server offers.
 *
 * @param uri the resource URI
 * @param name the resource name
 * @param title a human-readable title, or {@code null}
 * @param description a description, or {@code null}
 * @param mimeType the MIME type, or {@code null}
 * @param size the size in bytes, or {@code null} when unknown
 */
public record Resource(String uri, String name, String title, String description, String mimeType, Long size) {
}
