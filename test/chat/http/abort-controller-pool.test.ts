import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
	returnAbortController,
	takeAbortController,
} from '../../../src/chat/http/abort-controller-pool';

describe('abort controller pool', () => {
	it('hands a returned controller to the next taker, without the listeners left on its signal', () => {
		const first = takeAbortController();
		first.signal.addEventListener('abort', () => undefined);
		first.signal.addEventListener('abort', () => undefined);
		returnAbortController(first);
		const second = takeAbortController();
		expect(second).toBe(first);
		expect(getEventListeners(second.signal, 'abort')).toHaveLength(0);
		expect(second.signal.aborted).toBe(false);
	});

	it('never hands on an aborted controller', () => {
		const controller = takeAbortController();
		controller.abort();
		returnAbortController(controller);
		const next = takeAbortController();
		expect(next).not.toBe(controller);
		expect(next.signal.aborted).toBe(false);
	});

	it('gives attempts that run at the same time controllers of their own', () => {
		returnAbortController(new AbortController());
		const one = takeAbortController();
		const other = takeAbortController();
		expect(other).not.toBe(one);
		one.abort();
		expect(other.signal.aborted).toBe(false);
	});
});
