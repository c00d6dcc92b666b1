/**
 * `work`'s outcome, unless `signal` aborts first: then at once `onAbort(signal.reason)`, and
 * `work` is abandoned — it may still finish, but its late result (or rejection) goes nowhere.
 * A `work` that rejects because of the abort loses too: the abort is handled synchronously,
 * its rejection only a microtask later.
 */
export function settleOnAbort<T>(
	work: Promise<T>,
	signal: AbortSignal | undefined,
	onAbort: (reason: unknown) => T,
): Promise<T> {
	if (!signal) return work;
	if (signal.aborted) {
		work.catch(() => undefined);
		return Promise.resolve(onAbort(signal.reason));
	}
	return new Promise<T>((resolve, reject) => {
		const abandon = (): void => resolve(onAbort(signal.reason));
		signal.addEventListener('abort', abandon, { once: true });
		work.then(
			(value) => {
				signal.removeEventListener('abort', abandon);
				resolve(value);
			},
			(error: unknown) => {
				signal.removeEventListener('abort', abandon);
				reject(error);
			},
		);
	});
}
