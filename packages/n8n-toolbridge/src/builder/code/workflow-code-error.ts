import { ToolbridgeError } from 'n8n-nodes-toolbridge';

/** Why workflow code was refused before or while it was read. */
export type WorkflowCodeProblem =
	| 'NO_CODE'
	| 'CODE_TOO_LONG'
	| 'SYNTAX_ERROR'
	| 'TOO_DEEP'
	| 'FORBIDDEN_IMPORT'
	| 'ASSIGNMENT'
	| 'FORBIDDEN_NAME'
	| 'UNKNOWN_FUNCTION'
	| 'SDK_REJECTED'
	| 'NO_WORKFLOW';

/**
 * Workflow SDK code that cannot become a workflow: refused by the pre-pass (size, nesting,
 * imports, assignments, names that reach outside the SDK) or by the SDK's own interpreter.
 * Nothing of the code ran. `problem` names the rule; `line` (1-based, in the code block) says
 * where, when known.
 */
export class WorkflowCodeError extends ToolbridgeError {
	constructor(
		readonly problem: WorkflowCodeProblem,
		message: string,
		readonly line?: number,
		options?: { cause?: unknown },
	) {
		super('WORKFLOW_CODE_INVALID', message, options);
		this.name = 'WorkflowCodeError';
	}
}
