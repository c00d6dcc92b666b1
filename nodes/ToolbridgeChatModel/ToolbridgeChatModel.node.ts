import {
	NodeOperationError,
	type INodeType,
	type INodeTypeDescription,
	type ISupplyDataFunctions,
	type SupplyData,
} from 'n8n-workflow';
import {
	authenticationParameter,
	modelLocatorParameter,
	modelSubtitle,
} from '../AgentOrchestrator/descriptions/main-parameters';
import { chatModelOptionsParameter } from './descriptions/chat-model-options';
import { supplyToolbridgeChatModel } from '../../src/hosts/n8n/chat-model/supply-toolbridge-chat-model';
import { describeAgentError } from '../../src/hosts/n8n/output/describe-agent-error';
import { searchModels } from '../../src/hosts/n8n/chat-model/search-models';

/**
 * A chat model for any n8n AI node (AI Agent, chains …) that runs this package's own
 * Chat Completions client: OpenRouter fallbacks and provider routing, reasoning, prompt
 * caching, per-family tool schemas, first-token and stall limits. The logic lives in src/hosts/n8n.
 */
// Not `usableAsTool`: a chat model is the language model of an AI node, not a tool of one.
// eslint-disable-next-line @n8n/community-nodes/node-usable-as-tool
export class ToolbridgeChatModel implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Toolbridge Chat Model',
		name: 'toolbridgeChatModel',
		icon: { light: 'file:toolbridgeChatModel.svg', dark: 'file:toolbridgeChatModel.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: modelSubtitle,
		description:
			'Chat model for OpenRouter or any OpenAI-compatible API, with fallbacks, provider routing, reasoning and prompt caching',
		defaults: { name: 'Toolbridge Chat Model' },
		codex: {
			categories: ['AI'],
			subcategories: {
				AI: ['Language Models', 'Root Nodes'],
				'Language Models': ['Chat Models (Recommended)'],
			},
		},
		// Literals, not n8n-workflow's `NodeConnectionTypes` (absent before n8n-workflow 1.83).
		inputs: [],
		outputs: [{ type: 'ai_languageModel', displayName: 'Model' }],
		credentials: [
			{
				// n8n's own OpenRouter credential, as the Agent Orchestrator uses it.
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
		properties: [authenticationParameter, modelLocatorParameter, chatModelOptionsParameter],
	};

	methods = { listSearch: { searchModels } };

	/** The model n8n hands to the node connected to this one's output. */
	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		try {
			return await supplyToolbridgeChatModel(this, itemIndex);
		} catch (error) {
			throw new NodeOperationError(this.getNode(), error as Error, {
				itemIndex,
				description: describeAgentError(error),
			});
		}
	}
}
