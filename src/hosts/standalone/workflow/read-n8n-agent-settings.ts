import type { INode } from 'n8n-workflow';
import { chatServerOf } from '../../../chat/chat-server';
import type { WorkflowExport } from '../workflow-file';
import { createNodeParameterReader } from './node-parameter-reader';
import { readAgentChatModel } from './read-agent-chat-model';
import type { ReadWorkflowAgentOptions, WorkflowAgentSettings } from './workflow-agent-settings';

/** n8n's AI Agent node type. */
export const n8nAgentNodeType = '@n8n/n8n-nodes-langchain.agent';

// n8n's ToolsAgent: `options.systemMessage ?? SYSTEM_MESSAGE`, `options.maxIterations ?? 10`.
const n8nDefaultSystemMessage = 'You are a helpful assistant';
const n8nDefaultMaxIterations = 10;

/**
 * Reads n8n's own AI Agent node (or AI Agent Tool node, whose `text` is its prompt) of a workflow
 * export as a run of our loop: its prompt (`options.prompt` when given; `promptType` "define" →
 * `text`; otherwise the chat input), `options.systemMessage`,
 * `options.maxIterations`, `options.returnIntermediateSteps`, and its chat model and fallback
 * model (`readAgentChatModel`: the OpenRouter, OpenAI and Toolbridge Chat Models on the built-in
 * client, any other chat-model node through its own code via `options.chatModels`).
 * `options.model` / `options.baseUrl` route the model through the built-in client instead;
 * `options.model` is required when no model node is connected.
 *
 * @throws {AgentConfigurationError} when no model can be determined, the API key is missing,
 * the base URL is bad, a fallback model is enabled but missing, or a model node cannot supply.
 * @throws ExpressionError from n8n-workflow when a parameter expression is invalid.
 */
export async function readN8nAgentSettings(
	node: INode,
	workflow: WorkflowExport,
	options: ReadWorkflowAgentOptions,
): Promise<WorkflowAgentSettings> {
	const item = options.item ?? { chatInput: options.chatInput };
	const agent = createNodeParameterReader(node, {
		item,
		timezone: options.timezone,
		references: options.nodeReferences && {
			nodeReferences: options.nodeReferences,
			agentName: node.name,
		},
	});
	const agentOptions = (agent.get('options', {}) ?? {}) as {
		systemMessage?: string;
		maxIterations?: number;
		returnIntermediateSteps?: boolean;
	};
	const promptType = agent.get('promptType');
	const prompt =
		options.prompt ??
		(promptType === 'define' || (promptType === undefined && node.parameters.text !== undefined)
			? agent.get('text', '')
			: item.chatInput);

	const chatModel = await readAgentChatModel(node, workflow, {
		...options,
		needsFallback: agent.get('needsFallback', false) === true,
	});
	return {
		kind: 'n8n-agent',
		mode: 'full',
		connection: chatModel.connection,
		callModel: chatModel.callModel,
		modelNode: chatModel.modelNode,
		config: {
			...chatModel.config,
			...(chatModel.connection && { server: chatServerOf(chatModel.connection) }),
			systemMessage: agentOptions.systemMessage ?? n8nDefaultSystemMessage,
			maxIterations: agentOptions.maxIterations ?? n8nDefaultMaxIterations,
		},
		prompt: typeof prompt === 'string' ? prompt : prompt == null ? '' : JSON.stringify(prompt),
		concurrency: 4,
		returnIntermediateSteps: agentOptions.returnIntermediateSteps ?? false,
		debugLog: false,
		memoryErrorPolicy: 'continue',
		secrets: chatModel.secrets,
	};
}
