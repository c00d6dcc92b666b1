/**
 * Real n8n-nodes-base tool nodes (Crypto, Date & Time) the agent tests connect to an Agent
 * Orchestrator, and the workflow export that connects them. Each call builds fresh objects,
 * so a test that mutates a node (or a loader that fills defaults in) affects no other test.
 */
import type { IConnections, INode, INodeParameters } from 'n8n-workflow';
import type { WorkflowExport } from '../../src/hosts/standalone/workflow-file';

/** The node type of the Agent Orchestrator. */
export const orchestratorType = 'n8n-nodes-toolbridge.agentOrchestrator';

/** "Hash text": n8n's Crypto tool, SHA-256 (hex) of the `text` the model gives, into `sha256`. */
export function hashTextToolNode(): INode {
	return {
		id: 'hash',
		name: 'Hash text',
		type: 'n8n-nodes-base.cryptoTool',
		typeVersion: 2,
		position: [0, 200],
		parameters: {
			type: 'SHA256',
			value: "={{ $fromAI('text', 'The text to hash', 'string') }}",
			dataPropertyName: 'sha256',
			toolDescription: 'SHA-256 (hex) of a text',
		},
	};
}

/** "Format date": n8n's Date & Time tool, the `date` the model gives formatted as its year. */
export function formatDateToolNode(): INode {
	return {
		id: 'date',
		name: 'Format date',
		type: 'n8n-nodes-base.dateTimeTool',
		typeVersion: 2,
		position: [200, 200],
		parameters: {
			operation: 'formatDate',
			date: "={{ $fromAI('date', 'The date to format, ISO 8601', 'string') }}",
			format: 'custom',
			customFormat: 'yyyy',
			options: {},
			toolDescription: 'Formats a date',
		},
	};
}

/**
 * A workflow export with an Agent Orchestrator named `agentName` and `tools` connected to its
 * ai_tool input, in the order given.
 */
/** n8n-nodes-base Wait as a tool: waits `seconds` (from the model); it honours n8n's execution cancel. */
export function waitToolNode(): INode {
	return {
		id: 'wait',
		name: 'Wait',
		type: 'n8n-nodes-base.wait',
		typeVersion: 1.1,
		position: [0, 200],
		parameters: {
			resume: 'timeInterval',
			amount: "={{ $fromAI('seconds', 'How long to wait, in seconds', 'number') }}",
			unit: 'seconds',
			toolDescription: 'Waits',
		},
	};
}

export function agentWorkflow(
	agentName: string,
	agentParameters: INodeParameters,
	tools: INode[],
): WorkflowExport {
	const agent: INode = {
		id: 'agent',
		name: agentName,
		type: orchestratorType,
		typeVersion: 1,
		position: [0, 0],
		parameters: agentParameters,
	};
	const connections: IConnections = Object.fromEntries(
		tools.map((tool) => [
			tool.name,
			{ ai_tool: [[{ node: agentName, type: 'ai_tool', index: 0 }]] },
		]),
	);
	return { name: `${agentName} with real tools`, nodes: [agent, ...tools], connections };
}
