import type { INode } from 'n8n-workflow';
import type { CallModel } from '../../../agent/call-model-step';
import { createChatModelCaller } from '../../../agent/create-chat-model-caller';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import type { WorkflowAgentSettings } from '../workflow/workflow-agent-settings';

/**
 * The run's model call: the settings' own (a chat-model node supplied by its own code, a primary
 * model with n8n's fallback), else the built-in client on the settings' connection.
 *
 * @throws {AgentConfigurationError} `model` when the settings have neither.
 */
export function modelCallerOf(settings: WorkflowAgentSettings): CallModel {
	if (settings.callModel) return settings.callModel;
	if (!settings.connection)
		throw new AgentConfigurationError(
			'model',
			'The agent has neither a model call nor a connection.',
		);
	return createChatModelCaller(settings.connection);
}

/**
 * Puts the session's model (`--model`) on an Agent Orchestrator's settings. A chat-model node
 * that runs through its own code decides its model itself, so `--model` over it is refused.
 *
 * @throws {AgentConfigurationError} `model` when the Orchestrator's model comes from such a node.
 */
export async function applySessionModel(
	settings: WorkflowAgentSettings,
	node: INode,
	model: string,
): Promise<void> {
	if (settings.callModel)
		throw new AgentConfigurationError(
			'model',
			`--model cannot replace the model of Agent Orchestrator "${node.name}": its chat model "${settings.modelNode?.name ?? ''}" (${settings.modelNode?.type ?? ''}) runs through its own node code. Drop --model, or disconnect that node to use the Orchestrator's own credential.`,
		);
	settings.config.model = model;
}
