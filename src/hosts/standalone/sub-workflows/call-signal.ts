import { AsyncLocalStorage } from 'node:async_hooks';

const calls = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `work` as one tool call cancelled by `signal`: sub-workflows started inside it (by n8n's
 * Call n8n Workflow Tool, whose own code gets no signal) are cancelled with the call.
 */
export function withCallSignal<T>(
	signal: AbortSignal | undefined,
	work: () => Promise<T>,
): Promise<T> {
	return signal ? calls.run(signal, work) : work();
}

/** The cancel signal of the tool call running now, if it has one. */
export function currentCallSignal(): AbortSignal | undefined {
	return calls.getStore();
}
