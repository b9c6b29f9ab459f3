package dev.mcpx.autoconfigure;

/**
 * A property under {@code mcpx} has a value mcpx cannot work with.
 */
public class InvalidMcpxPropertyException extends RuntimeException {

	private final String property;

	private final String problem;

	/**
	 * Creates an exception naming the property and the problem.
	 * @param property the full property name, for example {@code mcpx.clients.demo.url}
	 * @param problem what is wrong with its value
	 */
	public InvalidMcpxPropertyException(String property, String problem) {
		super("Invalid property '" + property + "': " + problem);
		this.property = property;
		this.problem = problem;
	}

	/**
	 * The full name of the invalid property.
	 * @return the property name
	 */
	public String property() {
		return this.property;
	}

	/**
	 * What is wrong with its value.
	 * @return the problem
	 */
	public String problem() {
		return this.problem;
	}

}
