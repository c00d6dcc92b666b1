import type { ChatConnection } from '../../../agent/create-chat-model-caller';
import type { ICredentialDataDecryptedObject, INode, INodeCredentialsDetails } from 'n8n-workflow';
import type { AgentNodeSettings } from '../../../node-settings/agent-node-settings';
import type { AgentMode, ValidatorNodeSettings } from '../../../node-settings/read-mode-settings';
import type { ConnectionOverrides } from './resolve-connection-fields';

/** Finds the credential record a node references (by credential name, then by type). */
export type CredentialLookup = (
	details: INodeCredentialsDetails,
	type: string,
) => ICredentialDataDecryptedObject | undefined;

/** What reading an agent node of a workflow needs besides the node. */
export interface ReadWorkflowAgentOptions extends ConnectionOverrides {
	/** The user's text, handed to the node as `$json.chatInput` (n8n's Chat Trigger shape). */
	chatInput: string;
	/** Replaces the model the workflow names. */
	model?: string;
	credentials: CredentialLookup;
	/** The workflow's timezone setting, for `$now` in expressions. */
	timezone?: string;
	/**
	 * The prompt to run with, instead of the node's: a nested agent's prompt with the calling
	 * model's arguments already put in at its `$fromAI` markers.
	 */
	prompt?: string;
}

/** The settings of one run of a workflow's agent node, whichever node type it is. */
export interface WorkflowAgentSettings extends Omit<AgentNodeSettings, 'connection'> {
	/** Without n8n the built-in client always runs, on this connection. */
	connection: ChatConnection;
	/** `agentOrchestrator` or n8n's `agent`. */
	kind: 'orchestrator' | 'n8n-agent';
	/** The node's mode (n8n's AI Agent: always `full`). */
	mode: AgentMode;
	/** Validator mode's parameters. */
	validator?: ValidatorNodeSettings;
	/** Nested mode's "Max Depth". */
	maxDepth?: number;
}

/** The record a node references for `type`, if the node references one and it was supplied. */
export function credentialRecordOf(
	node: INode,
	type: string,
	lookup: CredentialLookup,
): ICredentialDataDecryptedObject | undefined {
	return lookup(credentialDetailsOf(node, type) ?? { id: null, name: '' }, type);
}

/** How to tell the user which credential record would serve `node`. */
export function credentialHint(node: INode, type: string): string {
	const name = credentialDetailsOf(node, type)?.name;
	return name
		? `the credential "${name}" (type ${type}) of node "${node.name}"`
		: `a "${type}" credential`;
}

/** The node's own reference to a credential of `type` (a type such as `toString` is not `Object.prototype`'s member). */
function credentialDetailsOf(node: INode, type: string): INodeCredentialsDetails | undefined {
	const credentials = node.credentials;
	return credentials && Object.hasOwn(credentials, type) ? credentials[type] : undefined;
}
