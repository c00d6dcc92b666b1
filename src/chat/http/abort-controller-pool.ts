import { getEventListeners } from 'node:events';
import { dropAbortSubscriptions, isAbortDispatcher } from './on-abort';

/**
 * One spare AbortController for the chat client's attempts. fetch spends ~20 µs on every
 * signal it has not seen before (it raises the signal's listener limit and registers a
 * WeakRef and a finalizer); on a signal it has seen it spends nothing more. So an attempt
 * that ended without aborting hands its controller to the next attempt.
 *
 * - An attempt owns its controller alone: one taken is no longer spare, so attempts that
 *   run at the same time get new ones.
 * - An aborted controller is never handed on.
 * - A controller handed on loses the listeners fetch left on its signal (fetch removes them
 *   only lazily, from a finalizer), so they do not pile up, and a later abort reaches only
 *   the request it is for; so do the calls subscribed through `onAbort` (whose one real
 *   listener stays for the next call).
 */
let spare: AbortController | undefined;

/** The spare controller, or a new one. */
export function takeAbortController(): AbortController {
	const controller = spare ?? new AbortController();
	spare = undefined;
	return controller;
}

/** Gives a controller whose attempt is over back as the spare (unless it was aborted). */
export function returnAbortController(controller: AbortController): void {
	if (controller.signal.aborted) return;
	dropAbortSubscriptions(controller.signal);
	for (const listener of getEventListeners(controller.signal, 'abort')) {
		if (isAbortDispatcher(listener)) continue;
		controller.signal.removeEventListener(
			'abort',
			listener as Parameters<AbortSignal['removeEventListener']>[1],
		);
	}
	spare = controller;
}
