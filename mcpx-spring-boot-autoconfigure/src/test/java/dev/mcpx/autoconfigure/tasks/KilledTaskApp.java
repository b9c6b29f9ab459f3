package dev.mcpx.autoconfigure.tasks;

import java.util.Map;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.mcpx.client.McpClients;

/**
 * An application that calls a long tool as a task with the JDBC journal, and waits to be killed: the process
 * {@link ApplicationRestartResumesTasksTest} kills with {@code destroyForcibly} mid-task (no graceful close, no
 * lease given back). Its arguments are the application's properties ({@code --name=value}); the tool is the property
 * {@code task.tool} ({@code delete_record} of the project's task peer by default, or {@code simulate-research-query}
 * of {@code server-everything}), the record it deletes or the topic it researches {@code task.record}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class KilledTaskApp {

	public static void main(String[] args) throws Exception {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(KilledTaskApp.class)
			.web(WebApplicationType.NONE)
			.run(args);
		String record = context.getEnvironment().getRequiredProperty("task.record");
		String tool = context.getEnvironment().getProperty("task.tool", "delete_record");
		// the project's peer deletes a record for six seconds; server-everything researches a topic in four stages
		Map<String, Object> arguments = tool.equals("delete_record")
				? Map.of("id", record, "durationMs", 6000, "pollIntervalMs", 200) : Map.of("topic", record);
		McpClients clients = context.getBean(McpClients.class);
		Thread caller = new Thread(() -> clients.get("tasks").callTool(tool, arguments), "caller");
		caller.setDaemon(true);
		caller.start();
		System.out.println("KILLED-TASK-APP CALLING");
		Thread.sleep(600_000);
	}

}
