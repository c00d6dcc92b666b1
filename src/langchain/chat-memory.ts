import type { ChatMessage } from '../chat/types';
import { langChainMessagesFromWire, wireMessagesFromLangChain } from './langchain-messages';
import { sanitizeHistory } from '../agent/sanitize-history';
import { lastTurns } from '../agent/history-window';
import { withMediaNotes } from './media-notes';

/** The parts of a LangChain chat memory (n8n's Simple, Redis, Postgres… memory) this package uses. */
export interface ChatMemoryLike {
	memoryKey?: string;
	/** A window memory's size (LangChain's BufferWindowMemory: the last `k` exchanges). */
	k?: number;
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
 * history. A window memory (`k`: LangChain's BufferWindowMemory keeps the last `2k`
 * messages, which cuts a tool round in two) is read as its last `k` turns instead — each
 * from a user message to the next, with all its tool calls and results — whenever its own
 * full window holds fewer than `k` turns. The result is sanitized (no tool message without its call, no
 * call without its results) and has no system messages (the agent's own system message
 * comes first).
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
	const history = historyOf(memory);
	const windowSize = asMemory.k;
	if (messages && typeof windowSize === 'number' && history) {
		const windowed = withoutSystem(wireMessagesFromLangChain(messages));
		const turns = windowed.filter((message) => message.role === 'user').length;
		// A full window holding fewer than k turns (tool rounds take more than two messages, or
		// it began inside a turn): read the whole history and keep k whole turns.
		if (turns < windowSize && messages.length >= 2 * windowSize) {
			const all = withoutSystem(wireMessagesFromLangChain(await history.getMessages()));
			return sanitizeHistory(lastTurns(all, windowSize));
		}
		return sanitizeHistory(windowed);
	}
	if (!messages) messages = history ? await history.getMessages() : [];
	return sanitizeHistory(withoutSystem(wireMessagesFromLangChain(messages)));
}

function withoutSystem(messages: ChatMessage[]): ChatMessage[] {
	return messages.filter((message) => message.role !== 'system');
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
