package dev.mcpx.client.internal.transport.http;

import java.io.ByteArrayInputStream;
import java.util.Locale;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A response's media type is read once, and a plainly written one is taken as it is: every
 * way a server may write {@code Content-Type} must still give what cutting the parameters,
 * trimming and lower-casing gives (which decides JSON against event stream, 2025-11-25
 * basic/transports §Sending Messages).
 */
class MediaTypeTest {

	@Test
	void everyWayOfWritingTheTypeGivesTheCutTrimmedLowerCaseType() {
		for (String value : new String[] { "application/json", "text/event-stream", "application/json; charset=utf-8",
				"Application/JSON", " application/json", "application/json\t", "TEXT/EVENT-STREAM;charset=UTF-8",
				"application/json ;x=y", "", ";", "application/j\u00e9son", "APPLİCATION/JSON" }) {
			int semicolon = value.indexOf(';');
			String expected = ((semicolon < 0) ? value : value.substring(0, semicolon)).trim()
				.toLowerCase(Locale.ROOT);
			assertThat(HttpLeg.Response.mediaTypeOf(value)).as("'%s'", value).isEqualTo(expected);
		}
		assertThat(HttpLeg.Response.mediaTypeOf(null)).isEmpty();
	}

	@Test
	void theResponseReadsItsTypeFromItsHeadersOnce() {
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.CONTENT_TYPE, "Text/Event-Stream; charset=utf-8");
		HttpLeg.Response response = new HttpLeg.Response(200, headers, new ByteArrayInputStream(new byte[0]));
		assertThat(response.mediaType()).isEqualTo("text/event-stream");
		assertThat(response.isEventStream()).isTrue();
		assertThat(response.isJson()).isFalse();
		assertThat(new HttpLeg.Response(200, new HttpHeaders(), new ByteArrayInputStream(new byte[0])).mediaType())
			.isEmpty();
	}

}
