package dev.mcpx.sample.tasks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * By default the task demo's {@link ReportServer} is served inside this application, at {@value #PATH} (MCP) and
 * {@code /reports-upstream/executions}, so that {@code POST /reports/<topic>} shows a task-backed call with no second
 * process. A task then lives no longer than the application: the walk-through that kills the application
 * ({@code tasks} profile) serves the reports upstream from a process of its own ({@link ReportUpstream}) instead.
 */
@Configuration(proxyBeanMethods = false)
@Profile("!tasks")
public class InProcessReportsConfiguration {

	/** The path the in-process reports upstream answers MCP requests on. */
	public static final String PATH = "/reports-upstream/mcp";

	@Bean(destroyMethod = "close")
	ReportServer reportServer() {
		return new ReportServer();
	}

	@Bean
	ServletRegistrationBean<ReportServlet> reportServlet(ReportServer reportServer) {
		ServletRegistrationBean<ReportServlet> registration = new ServletRegistrationBean<>(
				new ReportServlet(reportServer), "/reports-upstream/*");
		registration.setName("reportsUpstream");
		registration.setLoadOnStartup(1);
		return registration;
	}

	/** The servlet at {@code /reports-upstream/*}: {@code /mcp} and {@code /executions}. */
	static final class ReportServlet extends HttpServlet {

		private static final JsonMapper json = JsonMapper.shared();

		private final transient ReportServer reports;

		ReportServlet(ReportServer reports) {
			this.reports = reports;
		}

		@Override
		protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
			String path = String.valueOf(request.getPathInfo());
			if (path.equals("/executions") && request.getMethod().equals("GET")) {
				send(response, new ReportServer.Reply(200, this.reports.executionsJson(), null));
			}
			else if (path.equals("/mcp")) {
				send(response, this.reports.handle(request.getMethod(), request.getHeader("Mcp-Session-Id"),
						request.getInputStream()));
			}
			else {
				response.sendError(404);
			}
		}

		private static void send(HttpServletResponse response, ReportServer.Reply reply) throws IOException {
			response.setStatus(reply.status());
			if (reply.session() != null) {
				response.setHeader("Mcp-Session-Id", reply.session());
			}
			JsonNode body = reply.body();
			if (body != null) {
				byte[] bytes = json.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
				response.setContentType("application/json");
				response.setContentLength(bytes.length);
				response.getOutputStream().write(bytes);
			}
		}

	}

}
