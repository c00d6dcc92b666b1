/**
 * The texts the loop itself hands the model as tool results, when it does not run the
 * tool. Each says what was found and what is allowed, so the model can correct itself.
 */

/** The model called a tool that is not connected. */
export function unknownToolObservation(name: string, availableNames: string[]): string {
	const available =
		availableNames.length > 0
			? `Available tools: ${availableNames.join(', ')}.`
			: 'No tools are available.';
	return `Model tried to call unavailable tool '${name}'. ${available}`;
}

/** The model's arguments for a call were not one JSON object. */
export function invalidArgumentsObservation(name: string, error: string): string {
	return `Invalid arguments for tool '${name}': ${error}. Call it again with the arguments as one JSON object that matches the tool's schema.`;
}

/** The model repeated an identical call; it was not run again. */
export function repeatedCallObservation(name: string, count: number): string {
	return (
		`Tool '${name}' was called ${count} times with these same arguments, so it was not run again: ` +
		`the result would not change. Use the earlier results, change the arguments, or give your final answer. ` +
		`Repeating this exact call once more ends the run.`
	);
}

/** A call in the turn that broke the repeated-call limit: the loop is ending. */
export function stoppingObservation(reason: string): string {
	return `Not run: the run is ending (${reason}).`;
}

/** The text added to the last call when a limit forces a final answer. */
export function finalAnswerInstruction(reason: 'max-iterations' | 'repeated-call'): string {
	const why =
		reason === 'max-iterations'
			? 'You have reached the maximum number of tool-calling steps'
			: 'You have been repeating the same tool call';
	return `${why} for this request. Do not call any more tools. Answer now, as well as you can, with the information you already have.`;
}
