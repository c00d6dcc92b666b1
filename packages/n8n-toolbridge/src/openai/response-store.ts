import type { ChatMessage, ConversationStore } from 'n8n-nodes-toolbridge';

interface StoredResponse {
	messages: ChatMessage[];
	/** The `response` object as the client received it (`GET /v1/responses/{id}`). */
	response?: object;
}

/**
 * What `previous_response_id` continues and `GET /v1/responses/{id}` returns: each stored
 * response's whole conversation (the messages before it, its input, its answer) and the
 * `response` object sent, in the server's {@link ConversationStore} under `response:<id>`.
 * With `--store` (Redis, Postgres, a folder) every replica sharing it continues any
 * response; without it this process keeps them, bounded. The store's TTL and size bound
 * apply (a conversation past its value bound is not kept). `conversation:<id>` holds a
 * Responses `conversation`'s messages the same way.
 */
export class ResponseStore {
	constructor(private readonly store: ConversationStore) {}

	/** The conversation up to and including response `id`, or undefined when unknown, expired or evicted. */
	async get(id: string): Promise<ChatMessage[] | undefined> {
		return (await this.read(`response:${id}`))?.messages;
	}

	/** The `response` object stored under `id`, or undefined when unknown, expired or evicted. */
	async response(id: string): Promise<object | undefined> {
		return (await this.read(`response:${id}`))?.response;
	}

	/** Keeps response `id`'s conversation and the `response` object sent. */
	async set(id: string, messages: ChatMessage[], response?: object): Promise<void> {
		await this.store.set(`response:${id}`, JSON.stringify({ messages, response }));
	}

	/** Forgets response `id`; false when it was not kept. */
	async delete(id: string): Promise<boolean> {
		const found = (await this.store.get(`response:${id}`)) !== undefined;
		if (found) await this.store.delete(`response:${id}`);
		return found;
	}

	/** The messages of Responses `conversation` `id` so far (empty when new). */
	async conversation(id: string): Promise<ChatMessage[]> {
		return (await this.read(`conversation:${id}`))?.messages ?? [];
	}

	/** Replaces conversation `id`'s messages. */
	async setConversation(id: string, messages: ChatMessage[]): Promise<void> {
		await this.store.set(`conversation:${id}`, JSON.stringify({ messages }));
	}

	/** Takes conversation `id`'s lock for one turn (undefined: another turn holds it). */
	lockConversation(id: string, ttlMs: number): Promise<(() => Promise<void>) | undefined> {
		return this.store.lock(`conversation:${id}`, ttlMs);
	}

	private async read(key: string): Promise<StoredResponse | undefined> {
		const text = await this.store.get(key);
		if (text === undefined) return undefined;
		try {
			return JSON.parse(text) as StoredResponse;
		} catch {
			return undefined;
		}
	}
}
