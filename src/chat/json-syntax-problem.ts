/**
 * What JSON.parse found wrong, without the start of the text V8 quotes in its message
 * (`Unexpected token 'o', "nope sk-ab"... is not valid JSON`): the text may hold secrets (a
 * server echoing a key, headers typed with a mistake), and a quote cut short keeps the start
 * of a secret that no redaction would recognize.
 */
export function jsonSyntaxProblem(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.replace(/, ".*"(\.\.\.)? is not valid JSON$/s, ' (not valid JSON)');
}
