/**
 * Workflow exports for the chat-model sub-node tests, shaped as n8n's "Download" writes them:
 * n8n's AI Agent (typeVersion 2.2, which has "Enable Fallback Model") with a chat-model
 * sub-node on its Chat Model input (index 0), optionally a fallback model (index 1), and one
 * offline tool: a Code Tool ("Shout") that upper-cases its query and counts its runs.
 */
import type { IConnections, INode, INodeParameters } from 'n8n-workflow';
import type { WorkflowExport } from '../../../../src/hosts/standalone/workflow-file';

/** A chat-model node of n8n's LangChain package. */
export function modelNode(
	name: string,
	type: string,
	typeVersion: number,
	parameters: INodeParameters,
	credentials?: INode['credentials'],
): INode {
	return {
		id: name,
		name,
		type: `@n8n/n8n-nodes-langchain.${type}`,
		typeVersion,
		position: [0, 0],
		parameters,
		...(credentials ? { credentials } : {}),
	};
}

/** The Code Tool's JavaScript: upper-cases the query, and writes one line per run to `globalThis`'s counter when it can. */
export const shoutTool: INode = {
	id: 'shout',
	name: 'Shout',
	type: '@n8n/n8n-nodes-langchain.toolCode',
	typeVersion: 1.3,
	position: [0, 0],
	parameters: {
		description: 'Upper-cases the text given as query',
		language: 'javaScript',
		jsCode: 'return "SHOUTED: " + query.toUpperCase()',
	},
};

/** An AI Agent with `model` (and `fallback`, which turns "Enable Fallback Model" on) and the Shout tool. */
export function modelAgentWorkflow(
	model: INode,
	options: { fallback?: INode; agentParameters?: INodeParameters; tools?: INode[] } = {},
): WorkflowExport {
	const agent: INode = {
		id: 'agent',
		name: 'AI Agent',
		type: '@n8n/n8n-nodes-langchain.agent',
		typeVersion: 2.2,
		position: [0, 0],
		parameters: {
			options: { systemMessage: 'You shout.' },
			...(options.fallback ? { needsFallback: true } : {}),
			...options.agentParameters,
		},
	};
	const tools = options.tools ?? [shoutTool];
	const connections: IConnections = {
		[model.name]: {
			ai_languageModel: [[{ node: agent.name, type: 'ai_languageModel', index: 0 }]],
		},
	};
	if (options.fallback)
		connections[options.fallback.name] = {
			ai_languageModel: [[{ node: agent.name, type: 'ai_languageModel', index: 1 }]],
		};
	for (const tool of tools)
		connections[tool.name] = { ai_tool: [[{ node: agent.name, type: 'ai_tool', index: 0 }]] };
	return {
		id: `wf-${model.name.toLowerCase().replace(/\W+/g, '-')}`,
		name: `Agent on ${model.name}`,
		nodes: [agent, model, ...(options.fallback ? [options.fallback] : []), ...tools],
		connections,
	};
}
