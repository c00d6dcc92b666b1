/**
 * The texts a validator run sends back to the model after a failed attempt. Each says what
 * was wrong and what is allowed, so the next attempt can fix it.
 */

/** The model answered with text instead of a tool call. */
export function textInsteadOfCallFeedback(toolNames: string[], forced?: string): string {
	const what =
		forced !== undefined ? `the tool '${forced}'` : `one of the tools (${toolNames.join(', ')})`;
	return `Error: you answered with text, but this step needs a tool call. Call ${what} with arguments that match its schema; do not answer in text.`;
}

/** The model called a tool that is not offered (or not the one that is required). */
export function wrongToolFeedback(name: string, toolNames: string[], forced?: string): string {
	if (forced !== undefined)
		return `Error: tool '${name}' is not allowed here. Call the tool '${forced}'.`;
	return `Error: model tried to call unavailable tool '${name}'. Available tools: ${toolNames.join(', ')}.`;
}

/** The arguments were not one JSON object. */
export function brokenArgumentsFeedback(name: string, error: string): string {
	return `Error: the arguments for tool '${name}' are not valid JSON (${error}). Send them as one JSON object that matches the tool's schema.`;
}

/** The arguments failed the tool's schema; one line per problem. */
export function schemaProblemsFeedback(name: string, problemLines: string[]): string {
	return `Error: invalid arguments for tool '${name}':\n${problemLines.map((line) => `- ${line}`).join('\n')}\nFix the arguments and call the tool again.`;
}
