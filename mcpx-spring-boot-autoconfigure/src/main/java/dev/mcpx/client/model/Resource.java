package dev.mcpx.client.model;

import org.jspecify.annotations.Nullable;

/**
 * A resource the server offers.
 *
 * @param uri the resource URI
 * @param name the resource name
 * @param title a human-readable title
 * @param description a description
 * @param mimeType the MIME type
 * @param size the size in bytes, absent when unknown
 */
public record Resource(String uri, String name, @Nullable String title, @Nullable String description, @Nullable String mimeType, @Nullable Long size) {
}
