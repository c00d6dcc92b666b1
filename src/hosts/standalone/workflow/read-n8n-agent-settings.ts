import type { INode } from 'n8n-workflow';
import type { ChatConnection } from '../../../agent/create-chat-model-caller';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import type { WorkflowExport } from '../workflow-file';
import { createNodeParameterReader } from './node-parameter-reader';
import { assertConnectionUsable, resolveConnectionFields } from './resolve-connection-fields';
import { readToolbridgeModelSettings, toolbridgeChatModelNodeType } from './read-toolbridge-model-settings';
import { credentialHint, credentialRecordOf, type ReadWorkflowAgentOptions, type WorkflowAgentSettings } from './workflow-agent-settings';

/** n8n's AI Agent node type. */
export const n8nAgentNodeType = '@n8n/n8n-nodes-langchain.agent';

// n8n's ToolsAgent: `options.systemMessage ?? SYSTEM_MESSAGE`, `options.maxIterations ?? 10`.
const n8nDefaultSystemMessage = 'You are a helpful assistant';
const n8nDefaultMaxIterations = 10;

/** Chat-model sub-nodes whose settings map onto an OpenAI-compatible call: model default and credential type. */
const chatModelNodes: Record<string, { defaultModel: string; credentialType: string }> = {
	'@n8n/n8n-nodes-langchain.lmChatOpenRouter': { defaultModel: 'openai/gpt-4.1-mini', credentialType: 'openRouterApi' },
	'@n8n/n8n-nodes-langchain.lmChatOpenAi': { defaultModel: 'gpt-4.1-mini', credentialType: 'openAiApi' },
};

/**
 * Reads n8n's own AI Agent node of a workflow export as a run of our loop: its prompt
 * (`promptType` "define" → `text`; otherwise the chat input), `options.systemMessage`,
 * `options.maxIterations`, `options.returnIntermediateSteps`, and the model, temperature,
 * max tokens, timeout and credential of the chat model connected to its `ai_languageModel`
 * input (OpenRouter or OpenAI Chat Model; a Toolbridge Chat Model with all its options). `options.model` replaces the sub-node's model and
 * is required when no supported sub-node is connected.
 *
 * @throws {AgentConfigurationError} when no model can be determined, the API key is missing
 * or the base URL is bad.
 * @throws ExpressionError from n8n-workflow when a parameter expression is invalid.
 */
export async function readN8nAgentSettings(node: INode, workflow: WorkflowExport, options: ReadWorkflowAgentOptions): Promise<WorkflowAgentSettings> {
	const item = { chatInput: options.chatInput };
	const agent = createNodeParameterReader(node, { item, timezone: options.timezone });
	const agentOptions = (agent.get('options', {}) ?? {}) as { systemMessage?: string; maxIterations?: number; returnIntermediateSteps?: boolean };
	const promptType = agent.get('promptType');
	const prompt = promptType === 'define' || (promptType === undefined && node.parameters.text !== undefined) ? agent.get('text', '') : options.chatInput;

	const modelNode = findChatModelNode(workflow, node.name);
	if (modelNode?.type === toolbridgeChatModelNodeType) {
		const { connection, config, secrets } = await readToolbridgeModelSettings(modelNode, options);
		return {
			kind: 'n8n-agent',
			mode: 'full',
			connection,
			config: { ...config, systemMessage: agentOptions.systemMessage ?? n8nDefaultSystemMessage, maxIterations: agentOptions.maxIterations ?? n8nDefaultMaxIterations },
			prompt: typeof prompt === 'string' ? prompt : JSON.stringify(prompt ?? ''),
			concurrency: 4,
			returnIntermediateSteps: agentOptions.returnIntermediateSteps ?? false,
			debugLog: false,
			memoryErrorPolicy: 'continue',
			secrets,
		};
	}
	const known = modelNode && Object.hasOwn(chatModelNodes, modelNode.type) ? chatModelNodes[modelNode.type] : undefined;
	const modelReader = modelNode && known ? createNodeParameterReader(modelNode, { item, timezone: options.timezone }) : undefined;
	const modelOptions = (modelReader?.get('options', {}) ?? {}) as { temperature?: number; maxTokens?: number; timeout?: number; baseURL?: string };
	const model = options.model ?? (modelReader ? modelId(modelReader.get('model'), known!.defaultModel) : undefined);
	if (!model) {
		const found = modelNode ? `its chat model "${modelNode.name}" is a ${modelNode.type}, which toolbridge cannot read` : 'it has no chat model connected to its ai_languageModel input';
		throw new AgentConfigurationError('model', `Cannot tell which model AI Agent "${node.name}" uses: ${found}. Give one with --model.`);
	}

	const credentialType = known?.credentialType ?? 'openRouterApi';
	const record = modelNode ? credentialRecordOf(modelNode, credentialType, options.credentials) : undefined;
	const fields = resolveConnectionFields(record, { ...options, baseUrl: options.baseUrl ?? modelOptions.baseURL });
	assertConnectionUsable(fields, modelNode ? credentialHint(modelNode, credentialType) : `an "${credentialType}" credential`);

	const connection: ChatConnection = { baseUrl: fields.url, headers: {}, appName: 'n8n-nodes-toolbridge' };
	if (fields.apiKey !== '') connection.apiKey = fields.apiKey;
	// n8n's LangChain chat models take their timeout in milliseconds, for the whole request.
	if (typeof modelOptions.timeout === 'number' && modelOptions.timeout > 0) connection.timeoutMs = connection.totalTimeoutMs = modelOptions.timeout;
	return {
		kind: 'n8n-agent',
		mode: 'full',
		connection,
		config: {
			model,
			systemMessage: agentOptions.systemMessage ?? n8nDefaultSystemMessage,
			maxIterations: agentOptions.maxIterations ?? n8nDefaultMaxIterations,
			temperature: modelOptions.temperature,
			maxTokens: modelOptions.maxTokens !== undefined && modelOptions.maxTokens > 0 ? modelOptions.maxTokens : undefined,
		},
		prompt: typeof prompt === 'string' ? prompt : JSON.stringify(prompt ?? ''),
		concurrency: 4,
		returnIntermediateSteps: agentOptions.returnIntermediateSteps ?? false,
		debugLog: false,
		memoryErrorPolicy: 'continue',
		secrets: fields.apiKey === '' ? [] : [fields.apiKey],
	};
}

/** The first node connected to the agent's `ai_languageModel` input (n8n's primary model). */
function findChatModelNode(workflow: WorkflowExport, agentName: string): INode | undefined {
	for (const [source, byType] of Object.entries(workflow.connections)) {
		const targets = (byType.ai_languageModel ?? []).flatMap((outputs) => outputs ?? []);
		if (targets.some((connection) => connection.node === agentName && (connection.index ?? 0) === 0)) {
			const node = workflow.nodes.find((candidate) => candidate.name === source);
			if (node && node.disabled !== true) return node;
		}
	}
	return undefined;
}

/** The model id of a `model` parameter: a plain string, or a resource locator `{ value }` (OpenAI Chat Model ≥ 1.2). */
function modelId(value: unknown, fallback: string): string {
	if (typeof value === 'string') return value.trim() || fallback;
	if (typeof value === 'object' && value !== null && typeof (value as { value?: unknown }).value === 'string') {
		return (value as { value: string }).value.trim() || fallback;
	}
	return fallback;
}
