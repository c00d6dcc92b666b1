import {
	NodeOperationError,
	type EngineResponse,
	type IExecuteFunctions,
	type INodeExecutionData,
	type NodeOutput,
	type INodeType,
	type INodeTypeDescription,
	type ISupplyDataFunctions,
	type SupplyData,
} from 'n8n-workflow';
import {
	authenticationParameter,
	connectedModelNotice,
	modeParameter,
	modelLocatorParameter,
	modelParameter,
	modelSubtitle,
	promptParameter,
} from './descriptions/main-parameters';
import {
	maxAttemptsParameter,
	maxDepthParameter,
	modeOutputs,
	nestedPromptParameter,
	toolDescriptionParameter,
	validateOnlyParameter,
	validatorToolParameter,
} from './descriptions/mode-parameters';
import { optionsParameter } from './descriptions/options-parameter';
import { readNodeAgentMode, runModeItems } from '../../src/hosts/n8n/drivers/run-mode-items';
import { supplyNestedAgentTool } from '../../src/hosts/n8n/drivers/supply-nested-agent-tool';
import { errorOutput } from '../../src/hosts/n8n/output/error-output';
import { describeAgentError } from '../../src/hosts/n8n/output/describe-agent-error';
import { runFullMode } from '../../src/hosts/n8n/drivers/run-full-mode';
import { isEngineResumption } from '../../src/hosts/n8n/engine/read-engine-metadata';
import { checkConnectedTools } from '../../src/hosts/n8n/langchain/check-connected-tools';
import { searchModels } from '../../src/hosts/n8n/chat-model/search-models';

/** Runs a tool-calling agent loop per input item. The logic lives in src/agent. */
// Not `usableAsTool`: n8n's generic wrapper would add a second "…Tool" node type whose schema
// n8n builds. Nested mode (output `ai_tool`, `supplyData` with our compiler's schema) is how
// this node becomes a tool of another agent.
// eslint-disable-next-line @n8n/community-nodes/node-usable-as-tool
export class AgentOrchestrator implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agent Orchestrator',
		name: 'agentOrchestrator',
		icon: { light: 'file:agentOrchestrator.svg', dark: 'file:agentOrchestrator.dark.svg' },
		group: ['transform'],
		// 1.1: the Model parameter is a resource locator (a searchable list); version 1 keeps its string.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: modelSubtitle,
		description:
			'Runs a tool-calling agent loop against OpenRouter or any OpenAI-compatible API, with streaming, reasoning and a debug log',
		defaults: { name: 'Agent Orchestrator' },
		codex: {
			categories: ['AI'],
			subcategories: { AI: ['Agents', 'Root Nodes'] },
		},
		// Literals, not n8n-workflow's `NodeConnectionTypes`: that object is absent before
		// n8n-workflow 1.83, and reading it here (at load time) kept the node from loading.
		inputs: [
			{ type: 'main' },
			// Optional: when a chat model sub-node is connected, it is called instead of the node's own credential and model.
			{ type: 'ai_languageModel', displayName: 'Chat Model', required: false, maxConnections: 1 },
			{ type: 'ai_tool', displayName: 'Tools', required: false },
			{ type: 'ai_memory', displayName: 'Memory', required: false, maxConnections: 1 },
		],
		// `main`, or `ai_tool` in nested mode (computed by n8n from the mode parameter).
		outputs: modeOutputs,
		credentials: [
			{
				// n8n's own OpenRouter credential (shipped with every n8n install): users
				// already have it, and the design asks for it by name.
				// eslint-disable-next-line @n8n/community-nodes/no-credential-reuse, @n8n/community-nodes/valid-credential-references
				name: 'openRouterApi',
				// Not required: a connected Chat Model sub-node needs none (readAgentNodeSettings says when one is missing).
				required: false,
				displayOptions: { show: { authentication: ['openRouterApi'] } },
			},
			{
				name: 'openAiCompatibleApi',
				required: false,
				displayOptions: { show: { authentication: ['openAiCompatibleApi'] } },
			},
		],
		properties: [
			connectedModelNotice,
			authenticationParameter,
			modeParameter,
			toolDescriptionParameter,
			validatorToolParameter,
			modelParameter,
			{
				...modelLocatorParameter,
				displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
			},
			// Two `prompt` parameters, one per mode group (n8n shows the one whose displayOptions match).
			nestedPromptParameter,
			promptParameter,
			maxAttemptsParameter,
			validateOnlyParameter,
			maxDepthParameter,
			optionsParameter,
		],
	};

	methods = { listSearch: { searchModels } };

	/** Nested mode: the tool this agent offers its parent agent. */
	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		try {
			return await supplyNestedAgentTool(this, itemIndex);
		} catch (error) {
			throw new NodeOperationError(this.getNode(), error as Error, {
				itemIndex,
				description: describeAgentError(error),
			});
		}
	}

	async execute(this: IExecuteFunctions, response?: EngineResponse): Promise<NodeOutput> {
		const failItem = (error: unknown, itemIndex: number): INodeExecutionData => {
			if (this.continueOnFail())
				return { json: errorOutput(error), pairedItem: { item: itemIndex } };
			// A NodeOperationError (e.g. from a sub-node) is returned as is by this constructor.
			throw new NodeOperationError(this.getNode(), error as Error, {
				itemIndex,
				description: describeAgentError(error),
			});
		};
		if (!isEngineResumption(response)) checkConnectedTools(this);
		const mode = readNodeAgentMode(this);
		if (mode !== 'full' && !isEngineResumption(response))
			return [await runModeItems(this, mode, failItem)];
		// Engine or in-process driver; after an EngineRequest, n8n executes the node again with the tool results.
		return await runFullMode(this, response, failItem);
	}
}
