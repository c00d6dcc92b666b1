/** Which check found an issue. */
export type BuildIssueSource = 'parse' | 'graph' | 'nodes' | 'schema' | 'load' | 'structure';

/**
 * One problem found in built workflow code. `error`s make the workflow invalid; `warning`s
 * go back to the model once; `info` is only reported.
 */
export interface BuildIssue {
	severity: 'error' | 'warning' | 'info';
	source: BuildIssueSource;
	/** A stable name of the problem, e.g. `UNKNOWN_NODE_TYPE`, `OPTION_NOT_ALLOWED`, `TOOL_LOAD`. */
	code: string;
	/** The node it is about, by name. */
	node?: string;
	/** The parameter path inside the node, e.g. `options.systemMessage`. */
	path?: string;
	/** The line of the node's declaration (or of the parse error) in the code. */
	line?: number;
	message: string;
}

/** A stable key for one issue, to drop duplicates found by two checks and to remember what the model was told. */
export function issueKey(issue: BuildIssue): string {
	return `${issue.code}|${issue.node ?? ''}|${issue.path ?? ''}|${issue.message}`;
}

/** The issues without duplicates, errors first, then warnings, then info (order kept within each). */
export function sortIssues(issues: readonly BuildIssue[]): BuildIssue[] {
	const seen = new Set<string>();
	const unique = issues.filter((issue) => {
		const key = issueKey(issue);
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
	const rank = { error: 0, warning: 1, info: 2 } as const;
	return unique
		.map((issue, index) => ({ issue, index }))
		.sort((a, b) => rank[a.issue.severity] - rank[b.issue.severity] || a.index - b.index)
		.map(({ issue }) => issue);
}
