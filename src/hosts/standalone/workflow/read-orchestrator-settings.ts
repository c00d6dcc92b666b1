import type { IExecuteFunctions, INode, INodeType } from 'n8n-workflow';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import { connectedOnly, readAgentNodeSettings } from '../../n8n/settings/read-agent-node-settings';
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
} from '../../n8n/settings/read-mode-settings';
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
 * (the same `readAgentNodeSettings`, over the node's parameters with its defaults and
 * expressions), with the credential fields resolved from the overrides, the supplied
 * credential record and the environment. Also reads the mode and its parameters (validator:
 * tool, max attempts, validate only; nested: max depth); `options.prompt` replaces the
 * prompt (a nested agent's, filled by its caller). `nodeType` is the node's class (its
 * description gives the parameter defaults), from the host's node types.
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
	if (modelNode && !connected) {
		throw new AgentConfigurationError(
			'model',
			`Agent Orchestrator "${node.name}" has chat model "${modelNode.name}" (${modelNode.type}) connected, which toolbridge cannot call without n8n. Without n8n it runs ${runnableChatModelTypes.join(', ')}; connect one of them, or disconnect the model to use the node's own credential.`,
		);
	}
	const authentication = String(reader.get('authentication', 'openRouterApi'));
	// With a connected model the node's own credential is not needed: the reader below gets the
	// model's address only so that it can run; the connection it builds is replaced.
	const fields = connected
		? { apiKey: '', url: connected.connection.baseUrl, extraHeaders: undefined }
		: resolveConnectionFields(
				credentialRecordOf(node, authentication, options.credentials),
				options,
			);
	if (!connected) assertConnectionUsable(fields, credentialHint(node, authentication));

	// The node's own settings reader, over a context that answers the two calls it makes.
	const context = {
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name === 'prompt' && options.prompt !== undefined
				? options.prompt
				: reader.get(name, fallback),
		getCredentials: async () => ({
			apiKey: fields.apiKey,
			url: fields.url,
			extraHeaders: fields.extraHeaders,
		}),
	} as unknown as IExecuteFunctions;
	// This context has no connection data: the node's own credential and model always apply here.
	const {
		connection,
		callModel: _callModel,
		modelSource: _modelSource,
		...settings
	} = await readAgentNodeSettings(context, 0);
	if (options.model) settings.config.model = options.model;
	const result: WorkflowAgentSettings = connected
		? {
				...settings,
				config: { ...connectedOnly(settings.config), ...connected.config },
				connection: connected.connection,
				secrets: connected.secrets,
				kind: 'orchestrator',
				mode,
			}
		: { ...settings, connection: connection!, kind: 'orchestrator', mode };
	const get = (name: string, fallback: unknown) => reader.get(name, fallback);
	if (mode === 'validator') result.validator = readValidatorSettings(get);
	if (mode === 'nested') {
		const maxDepth = readMaxDepth(get);
		if (maxDepth !== undefined) result.maxDepth = maxDepth;
	}
	return result;
}
