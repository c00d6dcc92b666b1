import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Watchdog, type Watched } from '../../../src/chat/http/watchdog';

/** A watched item that records when it was checked and asks again `every` ms (or never). */
function item(every?: number): Watched & { checkedAt: number[] } {
	const checkedAt: number[] = [];
	return {
		checkedAt,
		check: (now) => {
			checkedAt.push(now);
			return every === undefined ? undefined : now + every;
		},
	};
}

describe('Watchdog', () => {
	beforeEach(() => {
		vi.useFakeTimers({ now: 1_000_000 });
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it('checks an item at its moment, and again whenever it asks', () => {
		const watchdog = new Watchdog();
		const watched = item(100);
		watchdog.watch(watched, Date.now() + 50);
		vi.advanceTimersByTime(49);
		expect(watched.checkedAt).toEqual([]);
		vi.advanceTimersByTime(1);
		vi.advanceTimersByTime(200);
		expect(watched.checkedAt.map((at) => at - 1_000_000)).toEqual([50, 150, 250]);
	});

	it('an item watched later with an earlier moment is checked at its own moment', () => {
		const watchdog = new Watchdog();
		const late = item();
		const early = item();
		watchdog.watch(late, Date.now() + 300_000);
		watchdog.watch(early, Date.now() + 20);
		vi.advanceTimersByTime(20);
		expect(early.checkedAt).toHaveLength(1);
		expect(late.checkedAt).toHaveLength(0);
		vi.advanceTimersByTime(300_000);
		expect(late.checkedAt).toHaveLength(1);
	});

	it('an unwatched item is never checked, and an item that says never is checked no more', () => {
		const watchdog = new Watchdog();
		const gone = item(10);
		const once = item();
		watchdog.watch(gone, Date.now() + 10);
		watchdog.watch(once, Date.now() + 10);
		watchdog.unwatch(gone);
		vi.advanceTimersByTime(1_000);
		expect(gone.checkedAt).toEqual([]);
		expect(once.checkedAt).toHaveLength(1);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('one request after another: only the first sets a timer', () => {
		const watchdog = new Watchdog();
		for (let request = 0; request < 100; request++) {
			const watched = item();
			watchdog.watch(watched, Date.now() + 300_000);
			vi.advanceTimersByTime(5);
			watchdog.unwatch(watched);
		}
		expect(vi.getTimerCount()).toBe(1);
	});
});
