package dev.mcpx.sample.demo;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;

/**
 * The servlet the container knows at {@link DemoUpstream#PATH}. It hands every request to
 * whichever SDK transport is current, which is what lets {@link DemoUpstream#restart()}
 * replace the transport without touching the servlet container.
 */
final class DemoUpstreamServlet extends HttpServlet {

	private final DemoUpstream upstream;

	DemoUpstreamServlet(DemoUpstream upstream) {
		this.upstream = upstream;
	}

	@Override
	public void init() throws ServletException {
		this.upstream.start(getServletConfig());
	}

	@Override
	public void service(ServletRequest request, ServletResponse response) throws ServletException, IOException {
		this.upstream.transport().service(request, response);
	}

	@Override
	public void destroy() {
		this.upstream.stop();
	}

}
