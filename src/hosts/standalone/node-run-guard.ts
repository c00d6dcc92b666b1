import type { INode } from 'n8n-workflow';
import type { NodeRunResult } from '../../tools/node-runner';
import type { WorkflowExport } from './workflow-file';

/**
 * Stands around every node run of a session — e.g. the private-network guard of `toolbridge
 * mcp` and `serve`: it calls `run` (maybe inside a scope of its own), or answers in its place.
 */
export type NodeRunGuard = (
	target: {
		workflow: WorkflowExport;
		node: INode;
		/** Set when the run is a whole sub-workflow that `node` calls (its inputs may come from the model). */
		subWorkflow?: WorkflowExport;
	},
	run: () => Promise<NodeRunResult>,
) => Promise<NodeRunResult>;
