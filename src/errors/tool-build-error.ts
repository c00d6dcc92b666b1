import { ToolbridgeError } from './toolbridge-error';

/** One problem found while compiling a node's `$fromAI` markers. */
export interface ToolBuildProblem {
	nodeName: string;
	/** Parameter path inside the node, e.g. `parameters.assignments.assignments[0].value`. */
	path?: string;
	/** Character offset in the parameter's raw value string. */
	index?: number;
	message: string;
	code?: string;
}

/**
 * A node could not become a tool because its `$fromAI` configuration is wrong. Thrown at
 * tool build time (never from a tool call), with the node name, parameter path and position.
 */
export class ToolBuildError extends ToolbridgeError {
	readonly problems: ToolBuildProblem[];

	constructor(problems: ToolBuildProblem[], options?: { cause?: unknown }) {
		super('TOOL_BUILD_FAILED', ToolBuildError.describe(problems), options);
		this.name = 'ToolBuildError';
		this.problems = problems;
	}

	/** One line per problem: `Node "X", parameters.path at 12: message`. */
	static describe(problems: ToolBuildProblem[]): string {
		return problems
			.map((problem) => {
				const where = [
					problem.path,
					problem.index === undefined ? undefined : `position ${problem.index}`,
				]
					.filter(Boolean)
					.join(' at ');
				return `Node "${problem.nodeName}"${where ? `, ${where}` : ''}: ${problem.message}`;
			})
			.join('\n');
	}
}
