/**
 * Where conversations live between turns, keyed by text: a Simple Memory session's messages,
 * a Responses API response's conversation. Values are JSON text. One process keeps them in
 * memory (`inProcessConversationStore`); replicas share one through `toolbridge --store URL`
 * (Redis, Postgres, a file), whose implementations live in the standalone package.
 */
export interface ConversationStore {
	/** The value under `key`, or undefined when never stored, deleted, expired or evicted. */
	get(key: string): Promise<string | undefined>;
	/** Stores `value` under `key`; it expires `ttlMs` after this write (default: the store's TTL). */
	set(key: string, value: string, options?: { ttlMs?: number }): Promise<void>;
	delete(key: string): Promise<void>;
	/**
	 * Takes `key`'s lock for one turn, across every process sharing the store: a release
	 * function, or undefined when another turn holds it (the caller waits or refuses with 409).
	 * A lock not released within `ttlMs` lapses (a replica killed mid-turn holds nothing).
	 */
	lock(key: string, ttlMs: number): Promise<(() => Promise<void>) | undefined>;
	/** Closes connections; the store is not used afterwards. */
	close?(): Promise<void>;
}

/** Limits of the in-process store. */
export interface InProcessStoreLimits {
	/** Entries kept at most, least recently used out first (default 10,000). */
	maxEntries?: number;
	/** Characters kept at most, all values together (default 64 Mi). */
	maxChars?: number;
	/** How long a value lives after its last write (default 24 h). */
	ttlMs?: number;
}

/** A {@link ConversationStore} in this process's memory: bounded by count, size and TTL. */
export function inProcessConversationStore(limits: InProcessStoreLimits = {}): ConversationStore {
	const maxEntries = limits.maxEntries ?? 10_000;
	const maxChars = limits.maxChars ?? 64 * 1024 * 1024;
	const defaultTtl = limits.ttlMs ?? 24 * 60 * 60 * 1000;
	const entries = new Map<string, { value: string; expires: number }>();
	const locks = new Map<string, number>();
	let chars = 0;
	const drop = (key: string): void => {
		const entry = entries.get(key);
		if (!entry) return;
		chars -= entry.value.length;
		entries.delete(key);
	};
	return {
		async get(key) {
			const entry = entries.get(key);
			if (!entry) return undefined;
			if (entry.expires <= Date.now()) {
				drop(key);
				return undefined;
			}
			entries.delete(key);
			entries.set(key, entry);
			return entry.value;
		},
		async set(key, value, options) {
			drop(key);
			if (value.length > maxChars) return;
			entries.set(key, { value, expires: Date.now() + (options?.ttlMs ?? defaultTtl) });
			chars += value.length;
			for (const oldest of entries.keys()) {
				if (entries.size <= maxEntries && chars <= maxChars) break;
				drop(oldest);
			}
		},
		async delete(key) {
			drop(key);
		},
		async lock(key, ttlMs) {
			const held = locks.get(key);
			if (held !== undefined && held > Date.now()) return undefined;
			const until = Date.now() + ttlMs;
			locks.set(key, until);
			return async () => {
				if (locks.get(key) === until) locks.delete(key);
			};
		},
	};
}
