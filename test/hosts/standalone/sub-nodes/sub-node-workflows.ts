/**
 * Workflow exports for the sub-node tool tests, shaped as n8n's "Download" writes them: an AI
 * Agent (n8n's own) with tools on its `ai_tool` input, sub-nodes connected to those.
 */
import type { IConnections, INode, INodeParameters, NodeConnectionType } from 'n8n-workflow';
import type { WorkflowExport } from '../../../../src/hosts/standalone/workflow-file';

/** A node of n8n's LangChain package. */
export function langChainNode(
	name: string,
	type: string,
	typeVersion: number,
	parameters: INodeParameters = {},
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

/** `from` feeds `to` through a `type` connection (`ai_tool`, `ai_embedding` …). */
export interface SubNodeLink {
	from: string;
	to: string;
	type: string;
}

/**
 * An n8n AI Agent ("AI Agent", typeVersion 1.7) whose tools are `tools`, plus `others` (sub-nodes
 * of those tools) joined by `links`.
 */
export function agentWorkflow(
	name: string,
	tools: INode[],
	others: INode[] = [],
	links: SubNodeLink[] = [],
): WorkflowExport {
	const agent: INode = {
		id: 'agent',
		name: 'AI Agent',
		type: '@n8n/n8n-nodes-langchain.agent',
		typeVersion: 1.7,
		position: [0, 0],
		parameters: { options: {} },
	};
	const connections: IConnections = {};
	const link = ({ from, to, type }: SubNodeLink): void => {
		connections[from] ??= {};
		connections[from][type] ??= [[]];
		connections[from][type][0]!.push({ node: to, type: type as NodeConnectionType, index: 0 });
	};
	for (const tool of tools) link({ from: tool.name, to: agent.name, type: 'ai_tool' });
	for (const each of links) link(each);
	return {
		id: `wf-${name.toLowerCase().replace(/\W+/g, '-')}`,
		name,
		nodes: [agent, ...tools, ...others],
		connections,
	};
}
