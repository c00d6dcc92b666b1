import { ToolbridgeError } from './toolbridge-error';

/**
 * An expression of an agent (its prompt, system message, a tool's description) reads the
 * output of another node of the workflow — `$('Telegram Trigger').item.json.message.text` —
 * and that node did not run here and has no pinned output. Code `UNRESOLVED_NODE_REFERENCE`.
 */
export class UnresolvedNodeReferenceError extends ToolbridgeError {
	/** The agent whose settings were being read. */
	readonly agentName: string;
	/** Where the expression is: the node and its parameter path, e.g. `AI Agent › options.systemMessage`. */
	readonly parameterPath: string;
	/** The node the expression names. */
	readonly nodeName: string;
	/** Whether the workflow has a node of that name at all. */
	readonly nodeExists: boolean;

	constructor(
		details: { agentName: string; parameterPath: string; nodeName: string; nodeExists: boolean },
		options?: { cause?: unknown },
	) {
		const { agentName, parameterPath, nodeName, nodeExists } = details;
		const found = nodeExists
			? `node "${nodeName}", which does not run here (only the agent and its sub-nodes do) and has no pinned output`
			: `node "${nodeName}", which is not in the workflow`;
		super(
			'UNRESOLVED_NODE_REFERENCE',
			`Agent "${agentName}": the expression at ${parameterPath} reads the output of ${found}. Give that output with --pin '${nodeName}={"field":"value"}' (the JSON of its item, or an array of items; "pin" in the library and the servers), or pin the node's data in n8n before exporting.`,
			options,
		);
		this.name = 'UnresolvedNodeReferenceError';
		this.agentName = agentName;
		this.parameterPath = parameterPath;
		this.nodeName = nodeName;
		this.nodeExists = nodeExists;
	}
}
