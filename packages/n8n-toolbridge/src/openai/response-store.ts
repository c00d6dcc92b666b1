import type { ChatMessage } from 'n8n-nodes-toolbridge';

/** Limits of a {@link ResponseStore}. */
export interface ResponseStoreLimits {
	/** Responses kept at most (default 1000). */
	maxEntries?: number;
	/** Bytes of conversation text kept at most, all responses together (default 64 MiB). */
	maxBytes?: number;
}

interface StoredConversation {
	messages: ChatMessage[];
	/** The `response` object as the client received it (`GET /v1/responses/{id}`). */
	response?: object;
	bytes: number;
}

/**
 * What `previous_response_id` continues and `GET /v1/responses/{id}` returns: each stored
 * response's whole conversation (the messages before it, its input, its answer) and the
 * `response` object sent, in this process's memory only. Bounded by count
 * and by bytes, least recently used first out; a conversation larger than the whole budget is
 * not kept. Not shared between processes: behind several replicas a follow-up that reaches
 * another one gets `previous_response_not_found`.
 */
export class ResponseStore {
	private readonly entries = new Map<string, StoredConversation>();
	private bytes = 0;
	private readonly maxEntries: number;
	private readonly maxBytes: number;

	constructor(limits: ResponseStoreLimits = {}) {
		this.maxEntries = limits.maxEntries ?? 1000;
		this.maxBytes = limits.maxBytes ?? 64 * 1024 * 1024;
	}

	/** The conversation up to and including response `id`, or undefined when unknown or evicted. */
	get(id: string): ChatMessage[] | undefined {
		const entry = this.entries.get(id);
		if (!entry) return undefined;
		// Most recently used goes last (a Map keeps insertion order).
		this.entries.delete(id);
		this.entries.set(id, entry);
		return entry.messages;
	}

	/** The `response` object stored under `id`, or undefined when unknown or evicted. */
	response(id: string): object | undefined {
		return this.entries.get(id)?.response;
	}

	/**
	 * Keeps response `id`'s conversation (and the `response` object sent), evicting the least
	 * recently used ones past the limits; both count against the byte budget.
	 */
	set(id: string, messages: ChatMessage[], response?: object): void {
		this.delete(id);
		const bytes =
			Buffer.byteLength(JSON.stringify(messages)) +
			(response ? Buffer.byteLength(JSON.stringify(response)) : 0);
		if (bytes > this.maxBytes || this.maxEntries < 1) return;
		this.entries.set(id, { messages, response, bytes });
		this.bytes += bytes;
		for (const [oldest, entry] of this.entries) {
			if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
			this.entries.delete(oldest);
			this.bytes -= entry.bytes;
		}
	}

	/** Forgets response `id`; false when it was not kept. */
	delete(id: string): boolean {
		const entry = this.entries.get(id);
		if (!entry) return false;
		this.entries.delete(id);
		this.bytes -= entry.bytes;
		return true;
	}

	/** How many responses and bytes are kept. */
	get size(): { entries: number; bytes: number } {
		return { entries: this.entries.size, bytes: this.bytes };
	}
}
