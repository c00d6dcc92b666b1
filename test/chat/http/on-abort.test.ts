import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import {
	returnAbortController,
	takeAbortController,
} from '../../../src/chat/http/abort-controller-pool';
import { onAbort } from '../../../src/chat/http/on-abort';

describe('onAbort', () => {
	it('calls each listener still subscribed once, when the signal aborts', () => {
		const controller = new AbortController();
		const kept = vi.fn();
		const dropped = vi.fn();
		onAbort(controller.signal, kept);
		const unsubscribe = onAbort(controller.signal, dropped);
		unsubscribe();
		controller.abort();
		controller.abort();
		expect(kept).toHaveBeenCalledTimes(1);
		expect(dropped).not.toHaveBeenCalled();
	});

	it('puts one real listener on a signal, however many subscribe', () => {
		const controller = new AbortController();
		for (let call = 0; call < 5; call++) onAbort(controller.signal, () => undefined)();
		onAbort(controller.signal, () => undefined);
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
	});

	it('never calls a listener for a signal that had already aborted (as addEventListener)', () => {
		const listener = vi.fn();
		onAbort(AbortSignal.abort(), listener);
		expect(listener).not.toHaveBeenCalled();
	});

	it('still calls the other listeners when one throws, and reports the throw as uncaught', () => {
		const reports: Array<() => void> = [];
		const queue = vi
			.spyOn(globalThis, 'queueMicrotask')
			.mockImplementation((report) => void reports.push(report));
		try {
			const controller = new AbortController();
			const after = vi.fn();
			onAbort(controller.signal, () => {
				throw new Error('listener failed');
			});
			onAbort(controller.signal, after);
			controller.abort();
			expect(after).toHaveBeenCalledTimes(1);
			expect(reports).toHaveLength(1);
			expect(reports[0]).toThrow('listener failed');
		} finally {
			queue.mockRestore();
		}
	});

	it('a pooled signal keeps its real listener, but a later abort reaches only the calls subscribed after it was handed on', () => {
		const first = takeAbortController();
		const stale = vi.fn();
		onAbort(first.signal, stale);
		returnAbortController(first);
		const second = takeAbortController();
		expect(second).toBe(first);
		const current = vi.fn();
		onAbort(second.signal, current);
		expect(getEventListeners(second.signal, 'abort')).toHaveLength(1);
		second.abort();
		expect(stale).not.toHaveBeenCalled();
		expect(current).toHaveBeenCalledTimes(1);
	});
});
