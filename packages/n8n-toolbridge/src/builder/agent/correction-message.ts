import { issueKey, type BuildIssue } from '../validate/build-issue';

/** At most this many issues are listed in one correction message. */
const MAX_LISTED = 40;

/** One issue as a line for the model: `- [CODE] node "X" path (line N): message`. */
export function issueLine(issue: BuildIssue): string {
	const where = [
		issue.node !== undefined ? `node "${issue.node}"` : undefined,
		issue.path,
		issue.line !== undefined ? `(line ${issue.line})` : undefined,
	]
		.filter(Boolean)
		.join(' ');
	return `- [${issue.code}]${where ? ` ${where}` : ''}: ${issue.message}`;
}

/** The lines around `line` of the code, the line itself marked with `>`. */
function codeAround(code: string, line: number): string {
	const lines = code.split('\n');
	const from = Math.max(1, line - 1);
	const to = Math.min(lines.length, line + 1);
	const shown: string[] = [];
	for (let number = from; number <= to; number++)
		shown.push(`${number === line ? '>' : ' '} ${number}: ${lines[number - 1]}`);
	return shown.join('\n');
}

/**
 * The correction turn after a check: the errors and the warnings the model has not been told
 * yet (each warning goes back once, so one it cannot or need not fix does not hold the build),
 * with the code around the first located one. `undefined` when there is nothing to send: the
 * workflow is done.
 */
export function correctionMessage(
	issues: readonly BuildIssue[],
	code: string,
	told: Set<string>,
): string | undefined {
	const errors = issues.filter((issue) => issue.severity === 'error');
	const warnings = issues.filter(
		(issue) => issue.severity === 'warning' && !told.has(issueKey(issue)),
	);
	if (errors.length === 0 && warnings.length === 0) return undefined;
	for (const issue of [...errors, ...warnings]) told.add(issueKey(issue));
	const parse = errors.find((issue) => issue.source === 'parse');
	const parts: string[] = [];
	if (parse) {
		parts.push(
			`Your code could not be read (nothing of it ran): ${parse.message}${parse.line !== undefined ? ` (line ${parse.line})` : ''}`,
		);
	} else {
		parts.push(
			`Your workflow code was checked. Fix ${errors.length ? 'every error' : 'these warnings where they apply'}, then answer with the whole corrected code block.`,
		);
		const listed = [...errors, ...warnings].slice(0, MAX_LISTED);
		const listedErrors = listed.filter((issue) => issue.severity === 'error');
		const listedWarnings = listed.filter((issue) => issue.severity === 'warning');
		if (listedErrors.length) parts.push(`Errors:\n${listedErrors.map(issueLine).join('\n')}`);
		if (listedWarnings.length) parts.push(`Warnings:\n${listedWarnings.map(issueLine).join('\n')}`);
		const more = errors.length + warnings.length - listed.length;
		if (more > 0) parts.push(`(${more} more not listed.)`);
	}
	const located = [...errors, ...warnings].find((issue) => issue.line !== undefined);
	if (located?.line !== undefined && code !== '')
		parts.push(`Code around line ${located.line}:\n${codeAround(code, located.line)}`);
	if (parse) parts.push('Answer again with the whole workflow in one ```javascript code block.');
	return parts.join('\n\n');
}
