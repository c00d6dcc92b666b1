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
	bytes: number;
}

/**
 * What `previous_response_id` continues: each stored response's whole conversation (the
 * messages before it, its input, its answer), in this process's memory only. Bounded by count
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

	/** Keeps response `id`'s conversation, evicting the least recently used ones past the limits. */
	set(id: string, messages: ChatMessage[]): void {
		this.delete(id);
		const bytes = Buffer.byteLength(JSON.stringify(messages));
		if (bytes > this.maxBytes || this.maxEntries < 1) return;
		this.entries.set(id, { messages, bytes });
		this.bytes += bytes;
		for (const [oldest, entry] of this.entries) {
			if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
			this.entries.delete(oldest);
			this.bytes -= entry.bytes;
		}
	}

	/** Forgets response `id`. */
	delete(id: string): void {
		const entry = this.entries.get(id);
		if (!entry) return;
		this.entries.delete(id);
		this.bytes -= entry.bytes;
	}

	/** How many responses and bytes are kept. */
	get size(): { entries: number; bytes: number } {
		return { entries: this.entries.size, bytes: this.bytes };
	}
}
