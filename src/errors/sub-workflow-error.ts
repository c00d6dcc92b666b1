import { ToolbridgeError } from './toolbridge-error';

/** What went wrong with a sub-workflow, each kind with its own stable code. */
export type SubWorkflowProblem =
	/** `SUB_WORKFLOW_NOT_FOUND`: no workflow file matches the reference. */
	| 'not-found'
	/** `SUB_WORKFLOW_NO_TRIGGER`: the sub-workflow has no node to start from. */
	| 'no-trigger'
	/** `SUB_WORKFLOW_FAILED`: a node of the sub-workflow failed. */
	| 'failed'
	/** `SUB_WORKFLOW_DEPTH`: workflows calling workflows went deeper than the limit. */
	| 'depth'
	/** `SUB_WORKFLOW_WAITING`: the sub-workflow stopped to wait (Wait node, form, human review). */
	| 'waiting';

const CODES: Record<SubWorkflowProblem, string> = {
	'not-found': 'SUB_WORKFLOW_NOT_FOUND',
	'no-trigger': 'SUB_WORKFLOW_NO_TRIGGER',
	failed: 'SUB_WORKFLOW_FAILED',
	depth: 'SUB_WORKFLOW_DEPTH',
	waiting: 'SUB_WORKFLOW_WAITING',
};

/**
 * A sub-workflow (Call n8n Workflow Tool, Execute Workflow node) could not be found or run
 * in the standalone host. `workflowName` names the sub-workflow, `nodeName` the node where it
 * failed (for `failed` and `waiting`), `path` the chain of workflows from the outermost one.
 */
export class SubWorkflowError extends ToolbridgeError {
	readonly problem: SubWorkflowProblem;
	readonly workflowName: string;
	readonly nodeName?: string;
	readonly path: string[];

	constructor(
		problem: SubWorkflowProblem,
		message: string,
		details: { workflowName: string; nodeName?: string; path?: string[]; cause?: unknown },
	) {
		super(CODES[problem], message, { cause: details.cause });
		this.name = 'SubWorkflowError';
		this.problem = problem;
		this.workflowName = details.workflowName;
		this.nodeName = details.nodeName;
		this.path = details.path ?? [details.workflowName];
	}
}
