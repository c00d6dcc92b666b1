import { describe, expect, it } from 'vitest';
import { enterAgentFrame } from '../../../../src/agent/modes/nested/agent-frame';

const usage = (promptTokens: number) => ({
	promptTokens,
	completionTokens: 0,
	totalTokens: promptTokens,
});

describe('enterAgentFrame', () => {
	it('a nested agent entered during the run reports its debug lines and usage to the parent', async () => {
		const parentLines: string[] = [];
		const parent = enterAgentFrame({ name: 'Parent', sink: (line) => parentLines.push(line) });
		await parent.run(async () => {
			const child = enterAgentFrame({ name: 'Child', sink: () => {} });
			expect(child.path).toEqual(['Parent', 'Child']);
			child.forwardDebug(() => {})({ type: 'debug', line: '[DEBUG] hello' });
			child.finish(usage(7));
		});
		expect(parentLines).toEqual(['[DEBUG] [Parent › Child] hello']);
		expect(parent.finish(usage(1)).promptTokens).toBe(8);
	});

	// Node keeps the store of an async resource made inside `run` (a pooled keep-alive socket,
	// a timer) for that resource's whole life; the record must not keep the run's sink (and
	// with it the caller's session, tools and host) alive through it. Behaviour that shows
	// it: work that outlives the run no longer reaches the finished run.
	it('once the run is over, its frame lets go of the run: late work reaches neither its sink nor its usage', async () => {
		const parentLines: string[] = [];
		const parent = enterAgentFrame({ name: 'Parent', sink: (line) => parentLines.push(line) });
		let late: Promise<string[]> | undefined;
		await parent.run(async () => {
			late = new Promise((resolve) =>
				setTimeout(() => {
					// Runs after `run` resolved, still under the run's store (Node carries it into the timer).
					const child = enterAgentFrame({ name: 'Straggler', sink: () => {} });
					child.forwardDebug(() => {})({ type: 'debug', line: '[DEBUG] late' });
					child.finish(usage(5));
					resolve(child.path);
				}, 5),
			);
		});
		const total = parent.finish(usage(1));
		// The cycle and depth checks still see where the straggler was started.
		expect(await late).toEqual(['Parent', 'Straggler']);
		expect(parentLines).toEqual([]);
		expect(total.promptTokens).toBe(1);
	});
});
