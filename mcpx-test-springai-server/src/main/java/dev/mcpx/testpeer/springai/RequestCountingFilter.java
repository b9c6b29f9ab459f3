package dev.mcpx.testpeer.springai;

import java.io.ByteArrayInputStream;
import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records every JSON-RPC message posted to {@code /mcp} before Spring AI's transport sees it,
 * so that what the server refuses (an unknown session, a method without a handler) is
 * counted too, and every GET (with or without {@code Last-Event-ID}). A body is read once
 * and handed on unchanged.
 */
@Component
public class RequestCountingFilter extends OncePerRequestFilter {

	private static final JsonMapper JSON = JsonMapper.shared();

	private final EventLog log;

	RequestCountingFilter(EventLog log) {
		this.log = log;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !request.getRequestURI().equals("/mcp");
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if ("GET".equals(request.getMethod())) {
			// a listen stream, or the resumption of a broken one (2025-11-25 basic/transports
			// §Resumability and Redelivery)
			this.log.get(request.getHeader("Last-Event-ID") != null);
			chain.doFilter(request, response);
			return;
		}
		if (!"POST".equals(request.getMethod())) {
			chain.doFilter(request, response);
			return;
		}
		byte[] body = request.getInputStream().readAllBytes();
		record(body, request.getHeader("Mcp-Session-Id") != null);
		chain.doFilter(new CachedBody(request, body), response);
	}

	private void record(byte[] body, boolean session) {
		JsonNode message;
		try {
			message = JSON.readTree(body);
		}
		catch (JacksonException ex) {
			this.log.request("(not JSON)", "", session);
			return;
		}
		String method = message.path("method").asString("(no method)");
		String tool = "tools/call".equals(method) ? message.path("params").path("name").asString("") : "";
		this.log.request(method, tool, session);
	}

	private static final class CachedBody extends HttpServletRequestWrapper {

		private final byte[] body;

		CachedBody(HttpServletRequest request, byte[] body) {
			super(request);
			this.body = body;
		}

		@Override
		public ServletInputStream getInputStream() {
			ByteArrayInputStream in = new ByteArrayInputStream(this.body);
			return new ServletInputStream() {

				@Override
				public int read() {
					return in.read();
				}

				@Override
				public int read(byte[] b, int off, int len) {
					return in.read(b, off, len);
				}

				@Override
				public boolean isFinished() {
					return in.available() == 0;
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setReadListener(ReadListener listener) {
					throw new UnsupportedOperationException("the body is already read");
				}

			};
		}

		@Override
		public int getContentLength() {
			return this.body.length;
		}

		@Override
		public long getContentLengthLong() {
			return this.body.length;
		}

	}

}
