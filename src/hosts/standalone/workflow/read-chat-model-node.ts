import { findSubNode } from '../sub-nodes/sub-node-tree';
import type { INode } from 'n8n-workflow';
import type { ChatConnection } from '../../../agent/create-chat-model-caller';
import { chatServerOf } from '../../../chat/chat-server';
import type { ChatModelSettings } from '../../../node-settings/read-chat-model-settings';
import type { WorkflowExport } from '../workflow-file';
import { createNodeParameterReader } from './node-parameter-reader';
import { assertConnectionUsable, resolveConnectionFields } from './resolve-connection-fields';
import {
	readToolbridgeModelSettings,
	toolbridgeChatModelNodeType,
} from './read-toolbridge-model-settings';
import {
	credentialHint,
	credentialRecordOf,
	type ReadWorkflowAgentOptions,
} from './workflow-agent-settings';

/** n8n's chat-model sub-nodes whose settings map onto an OpenAI-compatible call: model default and credential type. */
const openAiCompatibleModelNodes: Record<string, { defaultModel: string; credentialType: string }> =
	{
		'@n8n/n8n-nodes-langchain.lmChatOpenRouter': {
			defaultModel: 'openai/gpt-4.1-mini',
			credentialType: 'openRouterApi',
		},
		'@n8n/n8n-nodes-langchain.lmChatOpenAi': {
			defaultModel: 'gpt-4.1-mini',
			credentialType: 'openAiApi',
		},
	};

/** The chat-model sub-node types the standalone host can run, for messages. */
export const runnableChatModelTypes = [
	toolbridgeChatModelNodeType,
	...Object.keys(openAiCompatibleModelNodes),
];

/**
 * The first enabled node connected to an agent's `ai_languageModel` input `index`: 0 is n8n's
 * primary model, 1 the AI Agent's fallback model.
 */
export function findChatModelNode(
	workflow: WorkflowExport,
	agentName: string,
	index = 0,
): INode | undefined {
	return findSubNode(workflow, agentName, 'ai_languageModel', index);
}

/**
 * Reads a chat-model sub-node of a workflow export as the built-in client's connection and
 * model config: the Toolbridge Chat Model with all its options, n8n's OpenRouter and OpenAI
 * Chat Models with model, temperature, max tokens, timeout, base URL and credential.
 * `options.model` replaces the node's model. Undefined for any other type (toolbridge cannot
 * call, say, n8n's Anthropic or Bedrock models without n8n).
 *
 * @throws {AgentConfigurationError} for a missing API key, a bad base URL, bad extra headers or options.
 * @throws ExpressionError from n8n-workflow when a parameter expression is invalid.
 */
export async function readChatModelNode(
	modelNode: INode,
	options: ReadWorkflowAgentOptions,
): Promise<ChatModelSettings | undefined> {
	if (modelNode.type === toolbridgeChatModelNodeType)
		return await readToolbridgeModelSettings(modelNode, options);
	const known = Object.hasOwn(openAiCompatibleModelNodes, modelNode.type)
		? openAiCompatibleModelNodes[modelNode.type]
		: undefined;
	if (!known) return undefined;
	const reader = createNodeParameterReader(modelNode, {
		item: { chatInput: options.chatInput },
		timezone: options.timezone,
	});
	const modelOptions = (reader.get('options', {}) ?? {}) as {
		temperature?: number;
		maxTokens?: number;
		timeout?: number;
		baseURL?: string;
	};
	const fields = resolveConnectionFields(
		credentialRecordOf(modelNode, known.credentialType, options.credentials),
		{ ...options, baseUrl: options.baseUrl ?? modelOptions.baseURL },
	);
	assertConnectionUsable(fields, credentialHint(modelNode, known.credentialType));

	const connection: ChatConnection = {
		baseUrl: fields.url,
		headers: {},
		appName: 'n8n-nodes-toolbridge',
	};
	if (fields.apiKey !== '') connection.apiKey = fields.apiKey;
	// n8n's LangChain chat models take their timeout in milliseconds, for the whole request.
	if (typeof modelOptions.timeout === 'number' && modelOptions.timeout > 0)
		connection.timeoutMs = connection.totalTimeoutMs = modelOptions.timeout;
	const config: ChatModelSettings['config'] = {
		model: options.model ?? modelId(reader.get('model'), known.defaultModel),
		server: chatServerOf(connection),
	};
	if (modelOptions.temperature !== undefined) config.temperature = modelOptions.temperature;
	if (modelOptions.maxTokens !== undefined && modelOptions.maxTokens > 0)
		config.maxTokens = modelOptions.maxTokens;
	return { connection, config, secrets: fields.apiKey === '' ? [] : [fields.apiKey] };
}

/** The model id of a `model` parameter: a plain string, or a resource locator `{ value }` (OpenAI Chat Model ≥ 1.2). */
export function modelId(value: unknown, fallback: string): string {
	if (typeof value === 'string') return value.trim() || fallback;
	if (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as { value?: unknown }).value === 'string'
	) {
		return (value as { value: string }).value.trim() || fallback;
	}
	return fallback;
}
