import type { INode } from 'n8n-workflow';
import { chatServerOf } from '../../../chat/chat-server';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import type { WorkflowExport } from '../workflow-file';
import { createNodeParameterReader } from './node-parameter-reader';
import { assertConnectionUsable, resolveConnectionFields } from './resolve-connection-fields';
import { findChatModelNode, readChatModelNode } from './read-chat-model-node';
import {
	credentialHint,
	credentialRecordOf,
	type ReadWorkflowAgentOptions,
	type WorkflowAgentSettings,
} from './workflow-agent-settings';

/** n8n's AI Agent node type. */
export const n8nAgentNodeType = '@n8n/n8n-nodes-langchain.agent';

// n8n's ToolsAgent: `options.systemMessage ?? SYSTEM_MESSAGE`, `options.maxIterations ?? 10`.
const n8nDefaultSystemMessage = 'You are a helpful assistant';
const n8nDefaultMaxIterations = 10;

/**
 * Reads n8n's own AI Agent node (or AI Agent Tool node, whose `text` is its prompt) of a workflow
 * export as a run of our loop: its prompt (`options.prompt` when given; `promptType` "define" →
 * `text`; otherwise the chat input), `options.systemMessage`,
 * `options.maxIterations`, `options.returnIntermediateSteps`, and the model, temperature,
 * max tokens, timeout and credential of the chat model connected to its `ai_languageModel`
 * input (OpenRouter or OpenAI Chat Model; a Toolbridge Chat Model with all its options). `options.model` replaces the sub-node's model and
 * is required when no supported sub-node is connected.
 *
 * @throws {AgentConfigurationError} when no model can be determined, the API key is missing
 * or the base URL is bad.
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

	const modelNode = findChatModelNode(workflow, node.name);
	const read = modelNode ? await readChatModelNode(modelNode, options) : undefined;
	const model = read?.config.model ?? options.model;
	if (!model) {
		const found = modelNode
			? `its chat model "${modelNode.name}" is a ${modelNode.type}, which toolbridge cannot read`
			: 'it has no chat model connected to its ai_languageModel input';
		throw new AgentConfigurationError(
			'model',
			`Cannot tell which model AI Agent "${node.name}" uses: ${found}. Give one with --model.`,
		);
	}
	let connection = read?.connection;
	let secrets = read?.secrets;
	if (!connection) {
		// No model node toolbridge can read: --model, on an OpenRouter credential from the overrides or the environment.
		const fields = resolveConnectionFields(
			modelNode ? credentialRecordOf(modelNode, 'openRouterApi', options.credentials) : undefined,
			options,
		);
		assertConnectionUsable(
			fields,
			modelNode ? credentialHint(modelNode, 'openRouterApi') : 'an "openRouterApi" credential',
		);
		connection = { baseUrl: fields.url, headers: {}, appName: 'n8n-nodes-toolbridge' };
		if (fields.apiKey !== '') connection.apiKey = fields.apiKey;
		secrets = fields.apiKey === '' ? [] : [fields.apiKey];
	}
	return {
		kind: 'n8n-agent',
		mode: 'full',
		connection,
		config: {
			...read?.config,
			model,
			server: chatServerOf(connection),
			systemMessage: agentOptions.systemMessage ?? n8nDefaultSystemMessage,
			maxIterations: agentOptions.maxIterations ?? n8nDefaultMaxIterations,
		},
		prompt: typeof prompt === 'string' ? prompt : JSON.stringify(prompt ?? ''),
		concurrency: 4,
		returnIntermediateSteps: agentOptions.returnIntermediateSteps ?? false,
		debugLog: false,
		memoryErrorPolicy: 'continue',
		secrets: secrets ?? [],
	};
}
