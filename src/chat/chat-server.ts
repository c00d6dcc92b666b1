import { isOpenRouterUrl } from './is-openrouter-url';
import type { ChatRequest } from './types';

/**
 * The kinds of Chat Completions server the package tells apart: OpenRouter, and any other
 * OpenAI-compatible server (OpenAI, Azure, LiteLLM, vLLM, Ollama, LM Studio …). A run that
 * does not say which (a hand-made state, a custom `callModel`) is built for OpenRouter, the
 * package's default server.
 */
export type ChatServer = 'openrouter' | 'openai-compatible';

/** What one kind of server takes: the requests are built from this, so nothing is sent that the server does not know. */
export interface ChatServerCapabilities {
	/** OpenRouter's routing fields: `models` (the model, then its fallbacks) and `provider` preferences. */
	routingFields: boolean;
	/** `cache_control` breakpoints on content parts (prompt caching). */
	cacheControl: boolean;
	/**
	 * Image parts in a `tool` message reach the model inside its tool result (OpenRouter maps
	 * them to Anthropic's `tool_result` image blocks). Elsewhere a tool's images go in a user
	 * message after the tool turn, which every OpenAI-compatible server takes.
	 */
	toolMessageImages: boolean;
	/** Who tries the fallback models: the server (from `models`), or the chat caller, in order. */
	fallbacks: 'server' | 'client';
	/** Writes the reasoning setting in the server's own field. */
	writeReasoning(request: ChatRequest, reasoning: NonNullable<ChatRequest['reasoning']>): void;
}

/** One row per server kind: a new server quirk is a field here. */
export const chatServers: Readonly<Record<ChatServer, ChatServerCapabilities>> = {
	openrouter: {
		routingFields: true,
		cacheControl: true,
		toolMessageImages: true,
		fallbacks: 'server',
		// openrouter.ai/docs/use-cases/reasoning-tokens: `reasoning: { effort | max_tokens, exclude }`.
		writeReasoning: (request, reasoning) => {
			request.reasoning = reasoning;
		},
	},
	'openai-compatible': {
		routingFields: false,
		cacheControl: false,
		toolMessageImages: false,
		fallbacks: 'client',
		// Chat Completions' own field is `reasoning_effort` (OpenAI rejects an unknown `reasoning`);
		// a token budget and `exclude` are OpenRouter's and have no OpenAI-compatible form.
		writeReasoning: (request, reasoning) => {
			if (reasoning.effort !== undefined) request.reasoning_effort = reasoning.effort;
		},
	},
};

/** The server a connection talks to: `openRouter` when given, else from the base URL. */
export function chatServerOf(connection: { baseUrl: string; openRouter?: boolean }): ChatServer {
	const openRouter = connection.openRouter ?? isOpenRouterUrl(connection.baseUrl);
	return openRouter ? 'openrouter' : 'openai-compatible';
}

/** The capabilities of a server; none named: OpenRouter's (the default server). */
export function chatServerCapabilities(server: ChatServer | undefined): ChatServerCapabilities {
	return chatServers[server ?? 'openrouter'];
}

/**
 * Where servers put a turn's reasoning text, in the order read: OpenRouter and Ollama
 * `reasoning`; DeepSeek, vLLM, LM Studio and llama.cpp `reasoning_content`. Some servers
 * send the same text under both names, so only the first one present counts. (OpenRouter's
 * `reasoning_details`, kept for the round trip, win over both.)
 */
export const reasoningTextFields = ['reasoning', 'reasoning_content'] as const;

/** The reasoning text of a stream delta or a message's extra fields: its first non-empty {@link reasoningTextFields} field. */
export function reasoningTextIn(fields: Readonly<Record<string, unknown>> | undefined): string {
	for (const field of reasoningTextFields) {
		const value = fields?.[field];
		if (typeof value === 'string' && value !== '') return value;
	}
	return '';
}
