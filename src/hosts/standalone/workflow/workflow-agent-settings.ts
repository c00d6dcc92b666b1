import type { CallModel } from '../../../agent/call-model-step';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeCredentialsDetails,
} from 'n8n-workflow';
import type { NodeReferences } from '../node-references';
import type { AgentNodeSettings } from '../../../node-settings/agent-node-settings';
import type { AgentMode, ValidatorNodeSettings } from '../../../node-settings/read-mode-settings';
import type { ConnectionOverrides } from './resolve-connection-fields';
import type { ChatModelSupplier } from './supply-chat-model';

/** Finds the credential record a node references (by credential name, then by type). */
export type CredentialLookup = (
	details: INodeCredentialsDetails,
	type: string,
) => ICredentialDataDecryptedObject | undefined;

/** What reading an agent node of a workflow needs besides the node. */
export interface ReadWorkflowAgentOptions extends ConnectionOverrides {
	/** The user's text, handed to the node as `$json.chatInput` (n8n's Chat Trigger shape). */
	chatInput: string;
	/** The item the node receives (`$json`); default `{ chatInput }`. */
	item?: IDataObject;
	/** Other nodes' pinned output, for `$('Name')` in the node's expressions. */
	nodeReferences?: NodeReferences;
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
	/**
	 * Supplies chat-model sub-nodes the built-in client does not read (Groq, Mistral, Ollama …)
	 * through their own node code; without it such a node needs `model` (`--model`).
	 */
	chatModels?: ChatModelSupplier;
}

/** The settings of one run of a workflow's agent node, whichever node type it is. */
export interface WorkflowAgentSettings extends AgentNodeSettings {
	/**
	 * The model call when it is not the built-in client on `connection`: a chat-model sub-node
	 * supplied by its own node code (LangChain model caller), or a primary model with n8n's
	 * fallback model. Without it the built-in client runs on `connection`.
	 */
	callModel?: CallModel;
	/** The chat-model sub-node the primary model comes from, when one is connected and used. */
	modelNode?: { name: string; type: string };
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
