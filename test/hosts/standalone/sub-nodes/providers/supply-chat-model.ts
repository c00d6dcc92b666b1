/**
 * What every provider test does with its chat model node: the real node of n8n's LangChain
 * package, supplied as an AI Agent's `ai_languageModel` input through n8n-core's
 * `SupplyDataContext` (`ToolSupply.supplyAs`, the user's credential from the host), then driven
 * by our loop (`runAgent`) through `createLangChainModelCaller` with one offline tool.
 */
import type { INode } from 'n8n-workflow';
import { runAgent, type AgentRunOutcome } from '../../../../../src/agent/run-agent';
import type { AgentEvent } from '../../../../../src/agent/agent-event';
import {
	createLangChainModelCaller,
	isLangChainChatModel,
	type LangChainChatModelLike,
} from '../../../../../src/langchain/langchain-model-caller';
import type { StandaloneHost } from '../../../../../src/hosts/standalone/standalone-host';
import { ToolSupply } from '../../../../../src/hosts/standalone/sub-nodes/tool-supply';
import type { AgentTool } from '../../../../../src/tools/agent-tool';
import { agentWorkflow } from '../sub-node-workflows';

/** The user's message every provider test sends. */
export const userMessage = 'What is the weather in Paris?';

/** What the weather tool answers (the model's final answer quotes it). */
export const weatherObservation = 'Sunny, 21 °C in Paris';

/** The one offline tool: records its calls. */
export function weatherTool(calls: Array<Record<string, unknown>> = []): AgentTool {
	return {
		name: 'get_weather',
		description: 'The current weather in a city',
		parameters: {
			type: 'object',
			properties: { city: { type: 'string', description: 'City name' } },
			required: ['city'],
		},
		invoke: async (args) => {
			calls.push(args);
			return { content: weatherObservation, isError: false };
		},
	};
}

/**
 * Supplies `modelNode` as the `ai_languageModel` input of an n8n AI Agent ("AI Agent") through
 * the node's own `supplyData` on n8n-core, with `host`'s credentials.
 * @throws the node's own error when it cannot supply (its credential missing …)
 */
export async function supplyChatModel(
	host: StandaloneHost,
	modelNode: INode,
): Promise<{ model: LangChainChatModelLike; close: () => Promise<void> }> {
	const workflow = agentWorkflow(
		'Provider',
		[],
		[modelNode],
		[{ from: modelNode.name, to: 'AI Agent', type: 'ai_languageModel' }],
	);
	const agent = workflow.nodes.find((node) => node.name === 'AI Agent')!;
	const supply = new ToolSupply(host, workflow, agent, [modelNode], { chatInput: userMessage });
	const nodeType = host.nodeTypes.getByNameAndVersion(modelNode.type, modelNode.typeVersion);
	const model = await supply.supplyAs(modelNode, nodeType, 'ai_languageModel');
	if (!isLangChainChatModel(model))
		throw new Error(`${modelNode.type} supplied something that is not a chat model`);
	return { model, close: () => supply.close() };
}

/** One run of our loop over the supplied model: the weather tool, the user's message. */
export async function runWithWeatherTool(
	model: LangChainChatModelLike,
	modelId: string,
): Promise<AgentRunOutcome & { toolCalls: Array<Record<string, unknown>>; events: AgentEvent[] }> {
	const toolCalls: Array<Record<string, unknown>> = [];
	const events: AgentEvent[] = [];
	const outcome = await runAgent({
		input: { config: { model: modelId }, prompt: userMessage },
		tools: [weatherTool(toolCalls)],
		callModel: createLangChainModelCaller(model),
		onEvent: (event) => events.push(event),
	});
	return { ...outcome, toolCalls, events };
}
