import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { AgentOrchestrator } from '../../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import { AgentConfigurationError } from '../../errors/agent-configuration-error';
import { readAgentNodeSettings } from '../n8n/read-agent-node-settings';
import { createNodeParameterReader } from './node-parameter-reader';
import { assertConnectionUsable, resolveConnectionFields } from './resolve-connection-fields';
import { credentialHint, credentialRecordOf, type ReadWorkflowAgentOptions, type WorkflowAgentSettings } from './workflow-agent-settings';

/** Modes `runWorkflowAgent` can run; the others come with the validator/nested modes issue. */
const runnableModes = new Set(['full']);

/**
 * Reads an AgentOrchestrator node of a workflow export exactly as the node reads itself
 * (the same `readAgentNodeSettings`, over the node's parameters with its defaults and
 * expressions), with the credential fields resolved from the overrides, the supplied
 * credential record and the environment.
 *
 * @throws {AgentConfigurationError} for a mode this host cannot run, a missing API key, a bad
 * base URL or bad extra headers.
 * @throws ExpressionError from n8n-workflow when a parameter expression is invalid.
 */
export async function readOrchestratorSettings(node: INode, options: ReadWorkflowAgentOptions): Promise<WorkflowAgentSettings> {
	const reader = createNodeParameterReader(node, { item: { chatInput: options.chatInput }, nodeType: new AgentOrchestrator(), timezone: options.timezone });
	const mode = String(reader.get('mode', 'full'));
	if (!runnableModes.has(mode)) {
		throw new AgentConfigurationError('mode', `Node "${node.name}" is in ${mode} mode; toolbridge run can run full mode only so far.`);
	}
	const authentication = String(reader.get('authentication', 'openRouterApi'));
	const fields = resolveConnectionFields(credentialRecordOf(node, authentication, options.credentials), options);
	assertConnectionUsable(fields, credentialHint(node, authentication));

	// The node's own settings reader, over a context that answers the two calls it makes.
	const context = {
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) => reader.get(name, fallback),
		getCredentials: async () => ({ apiKey: fields.apiKey, url: fields.url, extraHeaders: fields.extraHeaders }),
	} as unknown as IExecuteFunctions;
	const settings = await readAgentNodeSettings(context, 0);
	if (options.model) settings.config.model = options.model;
	return { ...settings, kind: 'orchestrator' };
}
