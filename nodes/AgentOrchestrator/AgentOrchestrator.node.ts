import {
	NodeConnectionTypes,
	NodeOperationError,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import {
	authenticationParameter,
	modeParameter,
	modelParameter,
	promptParameter,
} from './descriptions/main-parameters';
import { optionsParameter } from './descriptions/options-parameter';
import { errorOutput } from '../../src/agent/n8n/error-output';
import { describeAgentError } from '../../src/agent/n8n/describe-agent-error';
import { runAgentNodeItem } from '../../src/agent/n8n/run-agent-node-item';

/** Runs a tool-calling agent loop per input item. The logic lives in src/agent. */
// Not `usableAsTool` yet: how this node is offered as a tool (nested mode, engine
// requests, n8n issue #30773) is decided by the nested-mode issue, not by n8n's generic wrapper.
// eslint-disable-next-line @n8n/community-nodes/node-usable-as-tool
export class AgentOrchestrator implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agent Orchestrator',
		name: 'agentOrchestrator',
		icon: { light: 'file:agentOrchestrator.svg', dark: 'file:agentOrchestrator.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter.model }}',
		description:
			'Runs a tool-calling agent loop against OpenRouter or any OpenAI-compatible API, with streaming, reasoning and a debug log',
		defaults: { name: 'Agent Orchestrator' },
		codex: {
			categories: ['AI'],
			subcategories: { AI: ['Agents', 'Root Nodes'] },
		},
		inputs: [
			{ type: NodeConnectionTypes.Main },
			{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: false },
			{ type: NodeConnectionTypes.AiMemory, displayName: 'Memory', required: false, maxConnections: 1 },
		],
		outputs: [{ type: NodeConnectionTypes.Main }],
		credentials: [
			{
				// n8n's own OpenRouter credential (shipped with every n8n install): users
				// already have it, and the design asks for it by name.
				// eslint-disable-next-line @n8n/community-nodes/no-credential-reuse, @n8n/community-nodes/valid-credential-references
				name: 'openRouterApi',
				required: true,
				displayOptions: { show: { authentication: ['openRouterApi'] } },
			},
			{
				name: 'openAiCompatibleApi',
				required: true,
				displayOptions: { show: { authentication: ['openAiCompatibleApi'] } },
			},
		],
		properties: [authenticationParameter, modeParameter, modelParameter, promptParameter, optionsParameter],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const output: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				output.push(await runAgentNodeItem(this, itemIndex));
			} catch (error) {
				if (this.continueOnFail()) {
					output.push({ json: errorOutput(error), pairedItem: { item: itemIndex } });
					continue;
				}
				// A NodeOperationError (e.g. from a sub-node) is returned as is by this constructor.
				throw new NodeOperationError(this.getNode(), error as Error, {
					itemIndex,
					description: describeAgentError(error),
				});
			}
		}
		return [output];
	}
}
