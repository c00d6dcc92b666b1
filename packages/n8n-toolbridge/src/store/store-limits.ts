/** The bounds every conversation store keeps (`--store`): time, one value's size, how many. */
export interface StoreLimits {
	/** How long a value lives after its last write, unless `set` says otherwise (default 24 h). */
	ttlMs?: number;
	/** Characters one value may have; a larger one is not kept (default 1 Mi). */
	maxValueChars?: number;
	/**
	 * Values kept at most (default 10,000): the file and Postgres stores delete the ones written
	 * longest ago past it on their sweep; Redis bounds memory with its own `maxmemory` policy.
	 */
	maxEntries?: number;
	/** How often expired values are swept (file, Postgres; default 60 s). */
	sweepEveryMs?: number;
}

/** {@link StoreLimits} with every default filled in. */
export type ResolvedStoreLimits = Required<StoreLimits>;

/** The limits with their defaults. */
export function resolveStoreLimits(limits: StoreLimits = {}): ResolvedStoreLimits {
	return {
		ttlMs: limits.ttlMs ?? 24 * 60 * 60 * 1000,
		maxValueChars: limits.maxValueChars ?? 1024 * 1024,
		maxEntries: limits.maxEntries ?? 10_000,
		sweepEveryMs: limits.sweepEveryMs ?? 60_000,
	};
}
