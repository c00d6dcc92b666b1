import type { ChatMessage } from '../chat/types';
import {
	langChainMessagesFromWire,
	wireMessagesFromLangChain,
} from './langchain-messages';
import { sanitizeHistory } from '../agent/sanitize-history';
import { withMediaNotes } from './media-notes';

/** The parts of a LangChain chat memory (n8n's Simple, Redis, Postgres… memory) this package uses. */
export interface ChatMemoryLike {
	memoryKey?: string;
	loadMemoryVariables?(values: Record<string, unknown>): Promise<Record<string, unknown>>;
	chatHistory?: ChatHistoryLike;
}

/** A LangChain chat message history. */
export interface ChatHistoryLike {
	getMessages(): Promise<unknown[]>;
	// Method syntax on purpose: parameters are then checked bivariantly, so LangChain's
	// `(messages: BaseMessage[]) => …` fits.
	addMessages?(messages: unknown[]): Promise<void>;
	addMessage?(message: unknown): Promise<void>;
}

/**
 * Loads the conversation so far from a connected memory, as wire messages: through
 * `loadMemoryVariables` (so a window memory's window applies), else the whole chat
 * history. The result is sanitized (no tool message without its call) and has no system
 * messages (the agent's own system message comes first).
 */
export async function loadMemoryHistory(
	memory: ChatMemoryLike | ChatHistoryLike,
): Promise<ChatMessage[]> {
	let messages: unknown[] | undefined;
	const asMemory = memory as ChatMemoryLike;
	if (typeof asMemory.loadMemoryVariables === 'function') {
		const variables = await asMemory.loadMemoryVariables({});
		const value =
			variables[asMemory.memoryKey ?? 'chat_history'] ??
			Object.values(variables).find(Array.isArray);
		if (Array.isArray(value)) messages = value;
	}
	if (!messages) {
		const history = historyOf(memory);
		messages = history ? await history.getMessages() : [];
	}
	return sanitizeHistory(
		wireMessagesFromLangChain(messages).filter((message) => message.role !== 'system'),
	);
}

/**
 * Appends a finished run's messages to the memory's chat history: the user message, each
 * assistant tool-call message with its tool results, and the final answer — as real AI
 * tool-call messages and tool messages, never a "[Used tools: …]" summary. Files sent with
 * the prompt are kept as notes (`[image: photo.png]`, see `withMediaNotes`), not as base64.
 */
export async function saveToMemory(
	memory: ChatMemoryLike | ChatHistoryLike,
	messages: readonly ChatMessage[],
): Promise<void> {
	const history = historyOf(memory);
	if (!history) return;
	const converted = langChainMessagesFromWire(
		withMediaNotes(sanitizeHistory(messages.filter((message) => message.role !== 'system'))),
	);
	if (typeof history.addMessages === 'function') {
		await history.addMessages(converted);
		return;
	}
	if (typeof history.addMessage === 'function') {
		for (const message of converted) await history.addMessage(message);
	}
}

function historyOf(memory: ChatMemoryLike | ChatHistoryLike): ChatHistoryLike | undefined {
	const asMemory = memory as ChatMemoryLike;
	if (asMemory.chatHistory && typeof asMemory.chatHistory.getMessages === 'function')
		return asMemory.chatHistory;
	if (typeof (memory as ChatHistoryLike).getMessages === 'function')
		return memory as ChatHistoryLike;
	return undefined;
}
