package dev.mcpx.client.model;

import org.jspecify.annotations.Nullable;

/**
 * A parameterized resource the server offers.
 *
 * @param uriTemplate the RFC 6570 URI template
 * @param name the template name
 * @param title a human-readable title
 * @param description a description
 * @param mimeType the MIME type of matching resources
 */
public record ResourceTemplate(String uriTemplate, String name, @Nullable String title, @Nullable String description, @Nullable String mimeType) {
}
