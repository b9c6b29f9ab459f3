package dev.mcpx.client.model;

/**
 * A parameterized resource the server offers.
 *
 * @param uriTemplate the RFC 6570 URI template
 * @param name the template name
 * @param title a human-readable title, or {@code null}
 * @param description a description, or {@code null}
 * @param mimeType the MIME type of matching resources, or {@code null}
 */
public record ResourceTemplate(String uriTemplate, String name, String title, String description, String mimeType) {
}
