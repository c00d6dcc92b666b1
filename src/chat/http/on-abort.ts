/** The listeners {@link onAbort} registered, per signal, behind that signal's one real listener. */
const subscribers = new WeakMap<AbortSignal, Set<() => void>>();
/** The real listeners {@link onAbort} put on signals (the controller pool keeps them). */
const dispatchers = new WeakSet<object>();

/**
 * Calls `listener` when `signal` aborts, until the returned function is called; like
 * `addEventListener('abort', listener, { once: true })` and its `removeEventListener`, but a
 * signal gets one real listener for its whole life, and each later subscription is a set
 * entry. Node's EventTarget spends ~1 µs adding and removing a listener (options, a listener
 * record, the AbortSignal hooks); a tool call subscribes its run to its signal, and the
 * pooled signals of the controller pool serve many calls in turn.
 *
 * As with `addEventListener`, a signal that has already aborted never calls `listener`. A
 * listener that throws is reported as an uncaught exception (as EventTarget reports it); the
 * others still run.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
	const listeners = subscribers.get(signal) ?? listen(signal);
	listeners.add(listener);
	return () => {
		listeners.delete(listener);
	};
}

/** Puts the one real listener on `signal`: it calls what is subscribed when the signal aborts. */
function listen(signal: AbortSignal): Set<() => void> {
	const listeners = new Set<() => void>();
	const dispatch = (): void => {
		const called = [...listeners];
		listeners.clear();
		for (const each of called) {
			try {
				each();
			} catch (error) {
				queueMicrotask(() => {
					throw error;
				});
			}
		}
	};
	dispatchers.add(dispatch);
	signal.addEventListener('abort', dispatch, { once: true });
	subscribers.set(signal, listeners);
	return listeners;
}

/** True for the one real listener {@link onAbort} keeps on a signal. */
export function isAbortDispatcher(listener: unknown): boolean {
	return typeof listener === 'function' && dispatchers.has(listener);
}

/** Drops every {@link onAbort} subscription of `signal` (its dispatcher stays, for the next). */
export function dropAbortSubscriptions(signal: AbortSignal): void {
	subscribers.get(signal)?.clear();
}
