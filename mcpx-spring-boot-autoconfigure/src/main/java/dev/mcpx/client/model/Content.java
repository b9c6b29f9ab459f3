package dev.mcpx.client.model;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * One block of content in a tool result or prompt message.
 */
public sealed interface Content
		permits Content.Text, Content.Image, Content.Audio, Content.Link, Content.Embedded, Content.Other {

	/**
	 * The content's {@code type} discriminator as sent on the wire.
	 * @return the type, for example {@code text}
	 */
	String type();

	/**
	 * Text content.
	 * @param text the text
	 */
	record Text(String text) implements Content {
		@Override
		public String type() {
			return "text";
		}
	}

	/**
	 * Image content.
	 * @param data the base64-encoded image
	 * @param mimeType the image's MIME type
	 */
	record Image(String data, String mimeType) implements Content {
		@Override
		public String type() {
			return "image";
		}
	}

	/**
	 * Audio content.
	 * @param data the base64-encoded audio
	 * @param mimeType the audio's MIME type
	 */
	record Audio(String data, String mimeType) implements Content {
		@Override
		public String type() {
			return "audio";
		}
	}

	/**
	 * A link to a resource the client may read.
	 * @param uri the resource URI
	 * @param name the resource name
	 * @param description a description
	 * @param mimeType the MIME type
	 */
	record Link(String uri, String name, @Nullable String description, @Nullable String mimeType) implements Content {
		@Override
		public String type() {
			return "resource_link";
		}
	}

	/**
	 * A resource embedded in the content.
	 * @param resource the resource's contents
	 */
	record Embedded(ResourceContents resource) implements Content {
		@Override
		public String type() {
			return "resource";
		}
	}

	/**
	 * Content of a type this client does not model, kept as sent.
	 * @param type the type discriminator
	 * @param json the whole content object
	 */
	record Other(String type, JsonNode json) implements Content {
	}

}
