import type { IDataObject, INode, INodeExecutionData, INodeTypeDescription } from 'n8n-workflow';

/** What went wrong inside a node, as the model should read it. */
export interface NodeRunError {
	message: string;
	/** n8n's `description` of the error (often the hint on how to fix it). */
	description?: string;
	/** HTTP status of a failed API call, when the node reports one. */
	httpCode?: string;
	/** The error class name, e.g. `NodeOperationError`, `NodeApiError`, `MissingCredentialError`. */
	name?: string;
}

/** The outcome of one node run: its output items, or an error. Never thrown. */
export interface NodeRunResult {
	items: INodeExecutionData[];
	error?: NodeRunError;
}

/** Per-run options of {@link NodeRunner.run}. */
export interface NodeRunOptions {
	/** Cancels the run: the tool call was cancelled (MCP `notifications/cancelled`, a client gone, a timeout). */
	signal?: AbortSignal;
}

/**
 * Runs one node of a workflow with given parameters, through whatever machinery the host has
 * (the standalone host: n8n-core's `WorkflowExecute`). The bridge (`createNodeAsTool`) only
 * needs this, so the same tool code works inside n8n and standalone.
 */
export interface NodeRunner {
	/** The node type's description for this node's type and version. */
	describe(node: INode): INodeTypeDescription;
	/**
	 * Runs `node` (already carrying the parameters to use) on one input item whose json is
	 * `input`. Resolves with the node's output or its error; rejects only on host bugs. When
	 * `options.signal` aborts, the host cancels the run (n8n's own execution cancel) and
	 * resolves at once with a cancellation error.
	 */
	run(node: INode, input: IDataObject, options?: NodeRunOptions): Promise<NodeRunResult>;
}
