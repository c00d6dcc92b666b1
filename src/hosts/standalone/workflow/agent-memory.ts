import { createHash, randomUUID } from 'node:crypto';
import type { IDataObject, INode, INodeType } from 'n8n-workflow';
import type { ChatMessage } from '../../../chat/types';
import { lastTurns } from '../../../agent/history-window';
import { MemoryUnavailableError } from '../../../errors/memory-unavailable-error';
import { SessionBusyError } from '../../../errors/session-busy-error';
import { UnresolvedNodeReferenceError } from '../../../errors/unresolved-node-reference-error';
import {
	loadMemoryHistory,
	saveToMemory,
	type ChatMemoryLike,
} from '../../../langchain/chat-memory';
import {
	langChainMessagesFromWire,
	wireMessagesFromLangChain,
} from '../../../langchain/langchain-messages';
import { inProcessConversationStore, type ConversationStore } from '../conversation-store';
import type { NodeReferences } from '../node-references';
import type { NodeRunGuard, StandaloneHost } from '../standalone-host';
import { subNodeTree, findSubNode } from '../sub-nodes/sub-node-tree';
import { ToolSupply } from '../sub-nodes/tool-supply';
import type { WorkflowExport } from '../workflow-file';
import { createNodeParameterReader } from './node-parameter-reader';

/** n8n's Simple Memory (window buffer) node type: in-process in n8n, kept in the store here. */
export const simpleMemoryNodeType = '@n8n/n8n-nodes-langchain.memoryBufferWindow';

/** How long a second run on a busy session waits for the first before SESSION_BUSY. */
export const sessionWaitMs = 2_000;
const lockPollMs = 25;
/** A run's lock lapses this long after its time limit (a process killed mid-turn holds nothing). */
const lockMarginMs = 60_000;
const defaultLockMs = 10 * 60_000;

/** What a run did with the agent's memory sub-node (on the run's result as `memory`). */
export interface AgentMemoryInfo {
	/** The memory sub-node's name. */
	node: string;
	/** Its node type. */
	type: string;
	/** The session key the node resolved (its `sessionIdType`), when it had one. */
	sessionId?: string;
	/** Why the memory was not used, or what went wrong with it under "continue". */
	notes: string[];
}

/** The memory of one agent run, its session locked: the history to send, and the turn to save. */
export interface OpenedAgentMemory {
	info: AgentMemoryInfo;
	/** The conversation so far (sanitized, windowed); empty when the memory is not used. */
	history: ChatMessage[];
	/** Saves a finished run's messages (the user message on); nothing when the memory is not used. */
	save(messages: readonly ChatMessage[]): Promise<void>;
	/** Closes what the memory node opened and releases the session's lock. */
	close(): Promise<void>;
}

/** What {@link openAgentMemory} reads the memory node with. */
export interface AgentMemoryContext {
	host: StandaloneHost;
	workflow: WorkflowExport;
	/** The agent's input item (`$json`; `sessionId` on it is what "fromInput" reads). */
	item: IDataObject;
	references: NodeReferences;
	/** Where Simple Memory conversations and the sessions' locks live (default: this process). */
	store?: ConversationStore;
	guard?: NodeRunGuard;
	/** "continue": a memory that fails gives a note and a one-off run; "fail": it throws. */
	policy: 'continue' | 'fail';
	/** The run's time limit: the session lock lapses after it (plus a minute). */
	runTimeoutMs?: number;
}

let processStore: ConversationStore | undefined;

/** The store of this process, shared by every run not given one. */
export function processConversationStore(): ConversationStore {
	processStore ??= inProcessConversationStore();
	return processStore;
}

/** The enabled node on `agentName`'s `ai_memory` input, if any. */
export function findMemoryNode(workflow: WorkflowExport, agentName: string): INode | undefined {
	return findSubNode(workflow, agentName, 'ai_memory');
}

/**
 * Opens the memory sub-node of `agentNode` for one run, through n8n's own node code (its
 * `supplyData` in the agent's execution, as `ai_memory`), keyed as the node keys it: its
 * `sessionIdType` "fromInput" reads `$json.sessionId` (the library's `sessionId`), "customKey"
 * its Session Key expression. Without a session id the run is one-off: the memory is not used
 * and a note says so. With one, the session is locked for the run (across the processes
 * sharing the store): a second run waits up to {@link sessionWaitMs}, then is refused.
 * Simple Memory, which n8n keeps in the process, is loaded from and written back to the store
 * (its last `contextWindowLength` turns), so another process continues the conversation.
 *
 * @returns undefined when the agent has no memory sub-node.
 * @throws {SessionBusyError} (SESSION_BUSY) when another run holds the session.
 * @throws {MemoryUnavailableError} (MEMORY_UNAVAILABLE) when the memory cannot be supplied or
 *   loaded and the policy is "fail", or its node type is not installed.
 */
export async function openAgentMemory(
	agentNode: INode,
	context: AgentMemoryContext,
): Promise<OpenedAgentMemory | undefined> {
	const node = findMemoryNode(context.workflow, agentNode.name);
	if (!node) return undefined;
	const info: AgentMemoryInfo = { node: node.name, type: node.type, notes: [] };
	const oneOff: OpenedAgentMemory = {
		info,
		history: [],
		save: async () => {},
		close: async () => {},
	};
	const nodeType = memoryNodeType(context.host, node);
	const { sessionId, fromCaller } = resolveSessionId(node, nodeType, agentNode, context);
	if (sessionId === undefined) {
		info.notes.push(
			`Memory "${node.name}" was not used: the run has no session id (its Session ID reads ${sessionSource(node, nodeType, context)}), so it is one-off. Give one (the library's sessionId, --session) to continue a conversation.`,
		);
		return oneOff;
	}
	info.sessionId = sessionId;
	const store = context.store ?? processConversationStore();
	const conversationKey = `${workflowKey(context.workflow)}:${sessionId}`;
	const simple = node.type === simpleMemoryNodeType;
	const release = await lockSession(store, conversationKey, sessionId, context.runTimeoutMs);
	const supply = new ToolSupply(
		context.host,
		// n8n keeps Simple Memory in the process by workflow id and session key: a run of its own
		// there (the store holds the conversation), so concurrent runs never share a buffer.
		simple
			? { ...context.workflow, id: `${workflowKey(context.workflow)}#${randomUUID()}` }
			: context.workflow,
		agentNode,
		subNodeTree(context.workflow, node.name).map((each) =>
			each === node && fromCaller ? keyedBy(node, sessionId) : each,
		),
		context.item,
		context.guard,
		context.references.keys,
	);
	let memory: ChatMemoryLike | undefined;
	const close = async (): Promise<void> => {
		// This run's own in-process buffer of Simple Memory goes with it.
		if (simple) await clearChatHistory(memory).catch(() => undefined);
		await supply.close().finally(release);
	};
	const fail = async (what: string, error: unknown): Promise<OpenedAgentMemory> => {
		const reason = error instanceof Error ? error.message : String(error);
		const message = `Memory "${node.name}" (${node.type}) ${what}: ${reason}`;
		if (context.policy === 'fail') {
			await close();
			throw new MemoryUnavailableError(node.name, message, { cause: error });
		}
		info.notes.push(`${message} — the run goes on without the conversation history.`);
		return { ...oneOff, close };
	};
	let history: ChatMessage[];
	const storeKey = `simple-memory:${conversationKey}`;
	try {
		memory = (await supply.supplyAs(
			fromCaller ? keyedBy(node, sessionId) : node,
			nodeType,
			'ai_memory',
		)) as ChatMemoryLike | undefined;
		if (!memory || typeof memory !== 'object')
			throw new Error('it supplied no chat memory on its ai_memory output');
	} catch (error) {
		return await fail('could not be reached', error);
	}
	try {
		if (simple) await restoreSimpleMemory(memory, await store.get(storeKey));
		history = await loadMemoryHistory(memory);
	} catch (error) {
		return await fail('could not be loaded', error);
	}
	return {
		info,
		history,
		close,
		save: async (messages) => {
			try {
				await saveToMemory(memory, messages);
				if (simple) await store.set(storeKey, JSON.stringify(await simpleMemoryTurns(memory)));
			} catch (error) {
				const reason = error instanceof Error ? error.message : String(error);
				const message = `Memory "${node.name}" (${node.type}) could not save this turn: ${reason}`;
				if (context.policy === 'fail')
					throw new MemoryUnavailableError(node.name, message, { cause: error });
				info.notes.push(`${message} — the next turn will not remember it.`);
			}
		},
	};
}

function memoryNodeType(host: StandaloneHost, node: INode): INodeType {
	let nodeType: INodeType;
	try {
		nodeType = host.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	} catch (error) {
		throw new MemoryUnavailableError(
			node.name,
			`Memory "${node.name}" (${node.type}) cannot run here: ${error instanceof Error ? error.message : String(error)}`,
			{ cause: error },
		);
	}
	if (typeof nodeType.supplyData !== 'function')
		throw new MemoryUnavailableError(
			node.name,
			`Memory "${node.name}" (${node.type}) is not a memory sub-node (it has no supplyData); connect Simple, Postgres, Redis, MongoDB, Zep, Motorhead or Xata memory to the agent's Memory input.`,
		);
	return nodeType;
}

/** The session id the memory node keys its conversation by, as n8n's `getSessionId` reads it. */
/** The memory node keyed by the caller's session id (its own Session Key cannot resolve here). */
function keyedBy(node: INode, sessionId: string): INode {
	return {
		...node,
		parameters: { ...node.parameters, sessionIdType: 'customKey', sessionKey: sessionId },
	};
}

function resolveSessionId(
	node: INode,
	nodeType: INodeType,
	agentNode: INode,
	context: AgentMemoryContext,
): { sessionId?: string; fromCaller: boolean } {
	const reader = createNodeParameterReader(node, {
		item: context.item,
		nodeType,
		timezone: context.workflow.settings?.timezone as string | undefined,
		references: { nodeReferences: context.references, agentName: agentNode.name },
	});
	let raw: unknown;
	let fromCaller = false;
	try {
		raw =
			reader.get('sessionIdType') === 'fromInput'
				? context.item.sessionId
				: reader.get('sessionKey');
	} catch (error) {
		// A Session Key that reads a node which does not run here (a trigger's chat id): the
		// caller's session id names the conversation instead; without one the run is one-off.
		if (!(error instanceof UnresolvedNodeReferenceError)) throw error;
		raw = context.item.sessionId;
		fromCaller = true;
	}
	if (raw === undefined || raw === null || raw === '') return { fromCaller };
	return { sessionId: typeof raw === 'object' ? JSON.stringify(raw) : String(raw), fromCaller };
}

function sessionSource(node: INode, nodeType: INodeType, context: AgentMemoryContext): string {
	const reader = createNodeParameterReader(node, { item: context.item, nodeType });
	return reader.get('sessionIdType') === 'fromInput'
		? '$json.sessionId'
		: `the key ${JSON.stringify(node.parameters.sessionKey ?? '')}`;
}

async function lockSession(
	store: ConversationStore,
	conversationKey: string,
	sessionId: string,
	runTimeoutMs: number | undefined,
): Promise<() => Promise<void>> {
	const ttlMs = (runTimeoutMs ?? defaultLockMs) + lockMarginMs;
	const until = Date.now() + sessionWaitMs;
	for (;;) {
		const release = await store.lock(`lock:${conversationKey}`, ttlMs);
		if (release) return release;
		if (Date.now() >= until)
			throw new SessionBusyError(
				sessionId,
				`Session "${sessionId}" is busy: another run on it has not finished (waited ${sessionWaitMs} ms). Turns of one conversation run one at a time; retry when the other has answered.`,
			);
		await new Promise((resolve) => setTimeout(resolve, lockPollMs));
	}
}

/** Replaces a Simple Memory's in-process history with the session's stored messages. */
/**
 * What keys a workflow's conversations: its id, else its name, else a digest of its nodes (two
 * exports without id or name never share a conversation).
 */
function workflowKey(workflow: WorkflowExport): string {
	if (workflow.id) return String(workflow.id);
	if (workflow.name) return workflow.name;
	return `nodes-${createHash('sha256').update(JSON.stringify(workflow.nodes)).digest('hex').slice(0, 16)}`;
}

async function clearChatHistory(memory: ChatMemoryLike | undefined): Promise<void> {
	const history = memory?.chatHistory as { clear?(): Promise<void> } | undefined;
	await history?.clear?.();
}

async function restoreSimpleMemory(
	memory: ChatMemoryLike,
	stored: string | undefined,
): Promise<void> {
	const history = memory.chatHistory as
		{ clear?(): Promise<void>; addMessages?(messages: unknown[]): Promise<void> } | undefined;
	if (!history?.clear || !history.addMessages) return;
	let messages: ChatMessage[] = [];
	if (stored !== undefined) {
		try {
			const parsed: unknown = JSON.parse(stored);
			if (Array.isArray(parsed)) messages = parsed as ChatMessage[];
		} catch {
			// An unreadable entry is a conversation lost, not a failed run.
		}
	}
	await history.clear();
	if (messages.length > 0) await history.addMessages(langChainMessagesFromWire(messages));
}

/** A Simple Memory's messages to store: its last `contextWindowLength` whole turns. */
async function simpleMemoryTurns(memory: ChatMemoryLike): Promise<ChatMessage[]> {
	const messages = wireMessagesFromLangChain((await memory.chatHistory?.getMessages()) ?? []);
	return typeof memory.k === 'number' ? lastTurns(messages, memory.k) : messages;
}
