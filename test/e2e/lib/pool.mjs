// @ts-check
/**
 * Run async jobs a few at a time (the compat matrix installs two n8n releases at once).
 */

/**
 * Run async jobs with at most `limit` at a time; each job's promise is returned at once.
 * @template T
 * @param {Array<() => Promise<T>>} jobs
 * @param {number} limit
 * @returns {Array<Promise<T>>}
 */
export function pool(jobs, limit) {
	let active = 0;
	/** @type {Array<() => void>} */
	const waiting = [];
	// A slot is taken synchronously when granted, and handed straight to the next waiter.
	const acquire = () => {
		if (active < limit) {
			active += 1;
			return Promise.resolve();
		}
		return new Promise((resolve) => waiting.push(() => resolve(undefined)));
	};
	const release = () => {
		const next = waiting.shift();
		if (next) next();
		else active -= 1;
	};
	return jobs.map(async (job) => {
		await acquire();
		try {
			return await job();
		} finally {
			release();
		}
	});
}
