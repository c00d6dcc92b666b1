import type { IDataObject, INode } from 'n8n-workflow';
import type { ChatMessage } from '../../../chat/types';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import { nodeReferences, pinnedNodeData, type NodeReferences } from '../node-references';
import { n8nAgentToolNodeType } from '../sub-nodes/n8n-agent-tool';
import { chooseUserMessage, type UserMessageChoice } from '../workflow/choose-user-message';
import { n8nAgentNodeType, readN8nAgentSettings } from '../workflow/read-n8n-agent-settings';
import { readOrchestratorSettings } from '../workflow/read-orchestrator-settings';
import type { ChatModelSupplier } from '../workflow/supply-chat-model';
import type {
	ReadWorkflowAgentOptions,
	WorkflowAgentSettings,
} from '../workflow/workflow-agent-settings';
import type { WorkflowSession } from './workflow-session';

/** The AgentOrchestrator node's full type name. */
export const orchestratorNodeType = 'n8n-nodes-toolbridge.agentOrchestrator';

/** What one agent node of a workflow is run on. */
export interface WorkflowAgentNodeInput {
	/**
	 * The user's text (the outermost agent): `$json.chatInput` of the item, and the user message
	 * itself unless the node's prompt wraps it or the caller asked for the node's own prompt
	 * (see `chooseUserMessage`).
	 */
	chatInput?: string;
	/** The item the node receives (`$json`), as the caller gave it (`--input`); `chatInput` is set over it. */
	item?: IDataObject;
	/** The prompt to send instead of the node's (a nested agent's, filled by its caller). */
	prompt?: string;
	/** This run's own cancel signal (a tool call's); the session's and the caller's also apply. */
	signal?: AbortSignal;
	/** Earlier conversation sent before the prompt (full mode), after the memory's. */
	history?: ChatMessage[];
	/**
	 * The conversation's session id (the outermost agent): `$json.sessionId` of the item, what
	 * a memory sub-node keyed "fromInput" reads (see `openAgentMemory`).
	 */
	sessionId?: string;
}

/**
 * What the node's expressions read in this run: the item (`$json`: the caller's item with the
 * user's text as `chatInput`), other nodes' pinned output (the export's `pinData`, the session's
 * pins over it; a Chat Trigger that is not pinned gives the item, as it does in n8n), and which
 * text is the user message.
 */
export function agentInputs(
	session: WorkflowSession,
	node: INode,
	input: WorkflowAgentNodeInput,
): { item: IDataObject; references: NodeReferences; userMessage: UserMessageChoice } {
	const userText = input.chatInput ?? '';
	const item: IDataObject =
		input.item === undefined || userText !== ''
			? { ...input.item, chatInput: userText }
			: { ...input.item };
	if (input.sessionId !== undefined) item.sessionId = input.sessionId;
	const pinned = pinnedNodeData(session.workflow, session.pins);
	for (const trigger of session.workflow.nodes) {
		if (chatTriggerTypes.has(trigger.type) && !Object.hasOwn(pinned, trigger.name))
			pinned[trigger.name] = [{ json: { action: 'sendMessage', ...item } }];
	}
	const userMessage: UserMessageChoice =
		input.prompt === undefined
			? chooseUserMessage(node, {
					userText,
					inputGiven: input.item !== undefined,
					pinnedNodes: Object.keys(session.pins ?? {}),
				})
			: { source: 'node-prompt', reason: 'reads-chat-input' };
	return { item, references: nodeReferences(session.workflow, pinned), userMessage };
}

// n8n's Chat Trigger and the older Manual Chat Trigger: their output item is the chat input.
const chatTriggerTypes = new Set([
	'@n8n/n8n-nodes-langchain.chatTrigger',
	'@n8n/n8n-nodes-langchain.manualChatTrigger',
]);

/**
 * The agent node's settings as its type reads them (the Agent Orchestrator, n8n's AI Agent or AI
 * Agent Tool) over this run's item, references and chat-model supplier.
 * @throws {AgentConfigurationError} for a node that is not an agent toolbridge runs, or bad settings.
 */
export function readAgentSettings(
	session: WorkflowSession,
	node: INode,
	input: WorkflowAgentNodeInput,
	run: {
		item: IDataObject;
		references: NodeReferences;
		prompt?: string;
		chatModels: ChatModelSupplier;
	},
): Promise<WorkflowAgentSettings> {
	const options: ReadWorkflowAgentOptions = {
		...session.connection,
		chatInput: input.chatInput ?? '',
		item: run.item,
		nodeReferences: run.references,
		prompt: run.prompt,
		chatModels: run.chatModels,
		timezone: session.workflow.settings?.timezone,
		credentials: (details, type) => session.host.credentialsHelper.find(details, type),
	};
	if (node.type === orchestratorNodeType)
		return readOrchestratorSettings(
			node,
			session.host.nodeTypes.getByNameAndVersion(node.type, node.typeVersion),
			session.workflow,
			options,
		);
	// n8n's AI Agent is only ever the outermost agent here, so the session's model applies.
	if (node.type === n8nAgentNodeType)
		return readN8nAgentSettings(node, session.workflow, { ...options, model: session.model });
	// n8n's AI Agent Tool is always a tool of another agent: it keeps its own model.
	if (node.type === n8nAgentToolNodeType)
		return readN8nAgentSettings(node, session.workflow, options);
	throw new AgentConfigurationError(
		'agent',
		`Node "${node.name}" (${node.type}) is not an agent toolbridge can run: use an Agent Orchestrator (${orchestratorNodeType}), n8n's AI Agent (${n8nAgentNodeType}) or n8n's AI Agent Tool (${n8nAgentToolNodeType}).`,
	);
}
