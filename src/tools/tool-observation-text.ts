import type { ArgumentProblem } from './coerce-arguments';
import type { NodeRunError } from './node-runner';

/**
 * The observation for arguments the model got wrong. Starts with `Error:` (what n8n's tool
 * wrapper and our LangChain adapter read as a failed call), names each field, the expected
 * type and what came, and tells the model to retry.
 */
export function argumentProblemsText(
	toolName: string,
	problems: readonly ArgumentProblem[],
): string {
	const lines = problems.map(
		(problem) =>
			`- "${problem.field}": expected ${problem.expected}, received ${problem.received}. ${problem.message}`,
	);
	return `Error: invalid arguments for tool "${toolName}":\n${lines.join('\n')}\nFix the arguments and call the tool again.`;
}

/** The observation for a node that failed: its message, n8n's description/hint, HTTP status. */
export function nodeErrorText(nodeName: string, error: NodeRunError): string {
	const parts = [`Error: node "${nodeName}" failed: ${error.message}`];
	if (error.httpCode) parts.push(`HTTP status: ${error.httpCode}`);
	if (error.description) parts.push(`Details: ${error.description}`);
	return parts.join('\n');
}

/**
 * The observation for a tool whose run threw: `Error: ` and the message, with n8n's
 * `description` (the hint on how to fix it) in brackets when the message lacks it.
 */
export function errorObservationText(error: unknown): string {
	if (
		error instanceof Error ||
		(typeof error === 'object' && error !== null && 'message' in error)
	) {
		const { message, description } = error as { message: string; description?: unknown };
		const details =
			typeof description === 'string' && description !== '' && !message.includes(description)
				? ` (${description})`
				: '';
		return `Error: ${message}${details}`;
	}
	return `Error: ${String(error)}`;
}
