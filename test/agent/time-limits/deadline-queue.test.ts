import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineQueue } from '../../../src/agent/time-limits/deadline-queue';

beforeEach(() => {
	vi.useFakeTimers();
});
afterEach(() => {
	vi.useRealTimers();
});

describe('DeadlineQueue', () => {
	it('expires each deadline after its length, in order, and not a cancelled one', () => {
		const queue = new DeadlineQueue(1000);
		const expired: string[] = [];
		queue.add(() => expired.push('a'));
		vi.advanceTimersByTime(300);
		const b = queue.add(() => expired.push('b'));
		queue.add(() => expired.push('c'));
		vi.advanceTimersByTime(699);
		expect(expired).toEqual([]);
		vi.advanceTimersByTime(1);
		expect(expired).toEqual(['a']);
		b.cancel();
		vi.advanceTimersByTime(300);
		expect(expired).toEqual(['a', 'c']);
		expect(queue.size).toBe(0);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('uses one timer for many pending deadlines, and cancelled ones leave nothing behind', () => {
		const queue = new DeadlineQueue(60_000);
		const deadlines = Array.from({ length: 5000 }, () => queue.add(() => undefined));
		expect(vi.getTimerCount()).toBe(1);
		expect(queue.size).toBe(5000);
		for (const deadline of deadlines) deadline.cancel();
		expect(queue.size).toBe(0);
		// The one timer stays, unref'd: it no longer keeps a process alive.
		expect(vi.getTimerCount()).toBe(1);
	});

	it('a deadline added after the timer fired for an earlier one is still kept', () => {
		const queue = new DeadlineQueue(100);
		const expired: number[] = [];
		queue.add(() => expired.push(1));
		vi.advanceTimersByTime(100);
		queue.add(() => expired.push(2));
		vi.advanceTimersByTime(99);
		expect(expired).toEqual([1]);
		vi.advanceTimersByTime(1);
		expect(expired).toEqual([1, 2]);
	});
});

describe('a process whose tool calls all ended', () => {
	it('exits at once: the pending time limit does not keep it alive', async () => {
		vi.useRealTimers();
		const { spawnSync } = await import('node:child_process');
		const script = `
			const { withToolTimeout } = require(${JSON.stringify(`${__dirname}/../../../src/agent/time-limits/with-tool-timeout.ts`)});
			const tool = { name: 't', description: '', parameters: { type: 'object' }, invoke: async () => ({ content: 'ok', isError: false }) };
			withToolTimeout(tool, 120000).invoke({}, { toolCallId: 'x' }).then((o) => console.log(o.content));
		`;
		const started = Date.now();
		const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
			encoding: 'utf8',
			timeout: 60_000,
		});
		expect(child.stdout.trim()).toBe('ok');
		expect(Date.now() - started).toBeLessThan(30_000);
	});
});
