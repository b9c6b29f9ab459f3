package dev.mcpx.autoconfigure.tasks;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.jdbc.init.PlatformPlaceholderDatabaseDriverResolver;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.DatabaseInitializationSettings;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.util.StreamUtils;

import dev.mcpx.autoconfigure.InvalidMcpxPropertyException;

/**
 * Creates the task journal's table from the script for the database's platform ({@code schema-h2.sql},
 * {@code schema-postgresql.sql} in this package), per {@code mcpx.tasks.jdbc.initialize-schema}, as Spring Session
 * JDBC initializes its own: on an embedded database only by default. The scripts create only what does not exist, so
 * running them on a journal in use changes nothing. Being a Boot script initializer, it runs before the beans that
 * use the database.
 */
final class TaskJournalSchemaInitializer extends DataSourceScriptDatabaseInitializer {

	static final String PROPERTY = "mcpx.tasks.jdbc.initialize-schema";

	private static final String LOCATION = "classpath:dev/mcpx/autoconfigure/tasks/schema-@@platform@@.sql";

	private static final String TABLE_NAME = "%TABLE_NAME%";

	private final String tableName;

	TaskJournalSchemaInitializer(DataSource dataSource, String tableName,
			McpxTasksProperties.SchemaInitialization initialization) {
		super(dataSource, settings(dataSource, initialization));
		this.tableName = JdbcMcpTaskStore.checkedTableName(tableName);
	}

	private static DatabaseInitializationSettings settings(DataSource dataSource,
			McpxTasksProperties.SchemaInitialization initialization) {
		DatabaseInitializationSettings settings = new DatabaseInitializationSettings();
		DatabaseInitializationMode mode = DatabaseInitializationMode.valueOf(initialization.name());
		settings.setMode(mode);
		if (mode != DatabaseInitializationMode.NEVER) {
			String location = new PlatformPlaceholderDatabaseDriverResolver().resolveAll(dataSource, LOCATION).get(0);
			if (!new ClassPathResource(location.substring("classpath:".length())).exists()) {
				throw new InvalidMcpxPropertyException(PROPERTY, "mcpx has schema scripts for H2 and PostgreSQL only, "
						+ "not for this database (" + location + "); create the table yourself and set never");
			}
			settings.setSchemaLocations(List.of(location));
		}
		return settings;
	}

	@Override
	protected void runScripts(Scripts scripts) {
		List<Resource> named = new ArrayList<>();
		Charset encoding = (scripts.getEncoding() != null) ? scripts.getEncoding() : StandardCharsets.UTF_8;
		for (Resource script : scripts) {
			try {
				String sql = StreamUtils.copyToString(script.getInputStream(), encoding);
				named.add(new ByteArrayResource(sql.replace(TABLE_NAME, this.tableName).getBytes(encoding),
						script.getDescription()));
			}
			catch (IOException ex) {
				throw new IllegalStateException("The task journal's schema script could not be read: " + script, ex);
			}
		}
		super.runScripts(new Scripts(named).continueOnError(scripts.isContinueOnError())
			.separator(scripts.getSeparator())
			.encoding(encoding));
	}

}
