import type { INode, INodeType } from 'n8n-workflow';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import {
	withChatModel,
	withConnectedModel,
	withOwnCredential,
} from '../../../node-settings/agent-node-settings';
import type { NodeParameterGetter } from '../../../node-settings/node-parameter-getter';
import { readAgentNodeParameters } from '../../../node-settings/read-agent-node-parameters';
import { readCredentialConnection } from '../../../node-settings/read-credential-connection';
import type { WorkflowExport } from '../workflow-file';
import {
	findChatModelNode,
	readChatModelNode,
	runnableChatModelTypes,
} from './read-chat-model-node';
import {
	readAgentMode,
	readMaxDepth,
	readValidatorSettings,
} from '../../../node-settings/read-mode-settings';
import { createNodeParameterReader } from './node-parameter-reader';
import { assertConnectionUsable, resolveConnectionFields } from './resolve-connection-fields';
import {
	credentialHint,
	credentialRecordOf,
	type ReadWorkflowAgentOptions,
	type WorkflowAgentSettings,
} from './workflow-agent-settings';

/**
 * Reads an AgentOrchestrator node of a workflow export exactly as the node reads itself
 * (the same `node-settings` readers, over the node's parameters with its defaults and
 * expressions), with the credential fields resolved from the overrides, the supplied
 * credential record and the environment. A connected chat-model node the host can run
 * (`readChatModelNode`) wins over the node's own credential and Model, as inside n8n; any other
 * chat-model node is supplied by its own node code (`options.chatModels`), unless
 * `options.baseUrl` routes the model to one endpoint (then the node's own Model and credential
 * apply, as without a connected model). Also
 * reads the mode and its parameters (validator: tool, max attempts, validate only; nested:
 * max depth); `options.prompt` replaces the prompt (a nested agent's, filled by its caller).
 * `nodeType` is the node's class (its description gives the parameter defaults), from the
 * host's node types.
 *
 * @throws {AgentConfigurationError} for an unknown mode, a missing API key, a bad base URL or
 * bad extra headers.
 * @throws ExpressionError from n8n-workflow when a parameter expression is invalid.
 */
export async function readOrchestratorSettings(
	node: INode,
	nodeType: INodeType,
	workflow: WorkflowExport,
	options: ReadWorkflowAgentOptions,
): Promise<WorkflowAgentSettings> {
	const reader = createNodeParameterReader(node, {
		item: options.item ?? { chatInput: options.chatInput },
		nodeType,
		timezone: options.timezone,
		references: options.nodeReferences && {
			nodeReferences: options.nodeReferences,
			agentName: node.name,
		},
	});
	const mode = readAgentMode((name, fallback) => reader.get(name, fallback), node.name);
	// A connected chat model wins over the node's own credential and model, as inside n8n.
	const modelNode = findChatModelNode(workflow, node.name);
	const connected = modelNode ? await readChatModelNode(modelNode, options) : undefined;
	// Any other chat-model node runs through its own code; with --base-url the caller routes the
	// model to one OpenAI-compatible endpoint instead, on the node's own Model and credential.
	const routed = options.baseUrl !== undefined;
	const supplied =
		modelNode && !connected && !routed && options.chatModels
			? await options.chatModels.supply(modelNode)
			: undefined;
	if (modelNode && !connected && !supplied && !routed) {
		throw new AgentConfigurationError(
			'model',
			`Agent Orchestrator "${node.name}" has chat model "${modelNode.name}" (${modelNode.type}) connected, which runs only in a workflow session here (or give --base-url to use the node's own Model and credential there). Without one it runs ${runnableChatModelTypes.join(', ')}.`,
		);
	}
	// The node's own readers, over the export's parameters (with the caller's prompt, if any).
	const get: NodeParameterGetter = (name, fallback) =>
		name === 'prompt' && options.prompt !== undefined ? options.prompt : reader.get(name, fallback);
	let result: WorkflowAgentSettings;
	if (connected) {
		const parameters = readAgentNodeParameters(get);
		result = { ...withChatModel(parameters, connected), kind: 'orchestrator', mode };
	} else if (supplied) {
		const parameters = readAgentNodeParameters(get);
		result = {
			...withConnectedModel(parameters, supplied.name),
			callModel: supplied.callModel,
			modelNode: { name: supplied.node.name, type: supplied.node.type },
			kind: 'orchestrator',
			mode,
		};
	} else {
		const authentication = String(reader.get('authentication', 'openRouterApi'));
		const fields = resolveConnectionFields(
			credentialRecordOf(node, authentication, options.credentials),
			options,
		);
		assertConnectionUsable(fields, credentialHint(node, authentication));
		const parameters = readAgentNodeParameters(get);
		if (options.model) parameters.config.model = options.model;
		const credential = await readCredentialConnection(get, async () => ({
			apiKey: fields.apiKey,
			url: fields.url,
			extraHeaders: fields.extraHeaders,
		}));
		result = { ...withOwnCredential(parameters, credential), kind: 'orchestrator', mode };
	}
	if (mode === 'validator') result.validator = readValidatorSettings(get);
	if (mode === 'nested') {
		const maxDepth = readMaxDepth(get);
		if (maxDepth !== undefined) result.maxDepth = maxDepth;
	}
	return result;
}
