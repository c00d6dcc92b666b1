import type { INode } from 'n8n-workflow';
import type { CallModel } from '../../../agent/call-model-step';
import {
	createChatModelCaller,
	type ChatConnection,
} from '../../../agent/create-chat-model-caller';
import { withFallbackCaller } from '../../../agent/with-fallback-caller';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import type { ChatModelSettings } from '../../../node-settings/read-chat-model-settings';
import type { WorkflowExport } from '../workflow-file';
import { createNodeParameterReader } from './node-parameter-reader';
import { findChatModelNode, modelId, readChatModelNode } from './read-chat-model-node';
import { assertConnectionUsable, resolveConnectionFields } from './resolve-connection-fields';
import {
	credentialHint,
	credentialRecordOf,
	type ReadWorkflowAgentOptions,
} from './workflow-agent-settings';

/** The model an n8n AI Agent (or AI Agent Tool) runs on, as the standalone host calls it. */
export interface AgentChatModel {
	/** The built-in OpenAI-compatible client's connection (Toolbridge / OpenAI / OpenRouter node, or the overrides). */
	connection?: ChatConnection;
	/** The model's config fields (the built-in client's sampling options; a supplied model's name). */
	config: Partial<ChatModelSettings['config']> & { model: string };
	/** The model call, when it is not the built-in client on `connection` alone: a supplied model, a fallback. */
	callModel?: CallModel;
	/** The model sub-node the run's primary model comes from, when one is connected and used. */
	modelNode?: { name: string; type: string };
	secrets: string[];
}

/**
 * The chat model of an n8n agent node, as n8n picks it: the node on its `ai_languageModel`
 * input 0, and with "Enable Fallback Model" (`needsFallback`) the node on input 1, tried when a
 * call of the primary model fails (see {@link withFallbackCaller}).
 *
 * - The Toolbridge, OpenAI and OpenRouter Chat Models run on the built-in client with all
 *   their options (`readChatModelNode`).
 * - Any other chat-model node (Groq, Mistral, Ollama, Anthropic …) is supplied by its own
 *   `supplyData` (`options.chatModels`) and driven through the LangChain model caller.
 * - `options.model` / `options.baseUrl` (`--model`, `--base-url`) route the primary model through
 *   the built-in client on one OpenAI-compatible endpoint instead; the fallback is then not used.
 *
 * @throws {AgentConfigurationError} when no model can be determined, a fallback is enabled but
 *   not connected, an API key is missing, a base URL is bad, or a model node cannot supply.
 * @throws ExpressionError from n8n-workflow when a parameter expression is invalid.
 */
export async function readAgentChatModel(
	agentNode: INode,
	workflow: WorkflowExport,
	options: ReadWorkflowAgentOptions & { needsFallback: boolean },
): Promise<AgentChatModel> {
	const overridden = options.model !== undefined || options.baseUrl !== undefined;
	const primary = await readPrimaryModel(agentNode, workflow, options, overridden);
	if (!options.needsFallback || overridden) return primary;
	const fallbackNode = findChatModelNode(workflow, agentNode.name, 1);
	if (!fallbackNode)
		throw new AgentConfigurationError(
			'fallbackModel',
			`AI Agent "${agentNode.name}" has "Enable Fallback Model" on, but no model is connected to its Fallback Model input (the second Chat Model input). Connect one, or turn the option off.`,
		);
	if (!options.chatModels)
		throw new AgentConfigurationError(
			'fallbackModel',
			`AI Agent "${agentNode.name}": its fallback model "${fallbackNode.name}" can only run in a workflow session.`,
		);
	// The fallback always runs through its own node code: its model and options are its own.
	const fallback = await options.chatModels.supply(fallbackNode);
	const primaryCall = primary.callModel ?? createChatModelCaller(primary.connection!);
	return { ...primary, callModel: withFallbackCaller(primaryCall, fallback.callModel) };
}

async function readPrimaryModel(
	agentNode: INode,
	workflow: WorkflowExport,
	options: ReadWorkflowAgentOptions,
	overridden: boolean,
): Promise<AgentChatModel> {
	const modelNode = findChatModelNode(workflow, agentNode.name, 0);
	const described = modelNode && { name: modelNode.name, type: modelNode.type };
	const read = modelNode ? await readChatModelNode(modelNode, options) : undefined;
	if (read) return { ...read, modelNode: described };
	if (modelNode && !overridden && options.chatModels) {
		const supplied = await options.chatModels.supply(modelNode);
		return {
			config: { model: supplied.name },
			callModel: supplied.callModel,
			modelNode: described,
			secrets: [],
		};
	}
	// No model node toolbridge reads, or an override: the built-in client on an OpenAI-compatible endpoint.
	const model =
		options.model ?? (modelNode && overridden ? nodeModelId(modelNode, options) : undefined);
	if (!model) {
		const found = modelNode
			? `its chat model "${modelNode.name}" is a ${modelNode.type}, which toolbridge cannot read here`
			: 'it has no chat model connected to its ai_languageModel input';
		throw new AgentConfigurationError(
			'model',
			`Cannot tell which model AI Agent "${agentNode.name}" uses: ${found}. Give one with --model.`,
		);
	}
	const fields = resolveConnectionFields(
		modelNode ? credentialRecordOf(modelNode, 'openRouterApi', options.credentials) : undefined,
		options,
	);
	assertConnectionUsable(
		fields,
		modelNode ? credentialHint(modelNode, 'openRouterApi') : 'an "openRouterApi" credential',
	);
	const connection: ChatConnection = {
		baseUrl: fields.url,
		headers: {},
		appName: 'n8n-nodes-toolbridge',
	};
	if (fields.apiKey !== '') connection.apiKey = fields.apiKey;
	return {
		connection,
		config: { model },
		secrets: fields.apiKey === '' ? [] : [fields.apiKey],
	};
}

/** The model id a node's `model` parameter names (a string or resource locator), for `--base-url` without `--model`. */
function nodeModelId(modelNode: INode, options: ReadWorkflowAgentOptions): string | undefined {
	const reader = createNodeParameterReader(modelNode, {
		item: { chatInput: options.chatInput },
		timezone: options.timezone,
	});
	const id = modelId(reader.get('model', ''), '');
	return id === '' ? undefined : id;
}
