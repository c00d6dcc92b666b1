import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OutputBoundary } from '../../../src/agent/output-boundary';
import { withToolTimeout } from '../../../src/agent/time-limits/with-tool-timeout';
import type { AgentTool, ToolObservation } from '../../../src/tools/agent-tool';

const secret = 'sk-or-v1-secret-0123456789abcdef';
const boundary = new OutputBoundary({ secrets: [secret], maxOutputLength: 60 });

function tool(invoke: AgentTool['invoke']): AgentTool {
	return { name: 'echo', description: 'echo', parameters: { type: 'object' }, invoke };
}

// The deadline queues are per length and per process: a test that lets one fire uses a length
// no other test (under other fake timers) used.
beforeEach(() => {
	vi.useFakeTimers();
});
afterEach(() => {
	vi.useRealTimers();
});

describe('withToolTimeout', () => {
	it('passes each call its own signal, and the result through the boundary when one is given', async () => {
		const signals: Array<AbortSignal | undefined> = [];
		const echo = tool(async (args, options) => {
			signals.push(options.signal);
			return { content: `said ${String(args.text)}`, isError: false, value: args };
		});
		const timed = withToolTimeout(echo, 1000, { boundary });
		const observation = await timed.invoke({ text: secret }, { toolCallId: 'a' });
		expect(observation).toEqual({
			content: 'said [REDACTED]',
			isError: false,
			value: { text: '[REDACTED]' },
		});
		expect(signals[0]).toBeInstanceOf(AbortSignal);
		expect(signals[0]?.aborted).toBe(false);
		const plain = await withToolTimeout(echo, 1000).invoke({ text: 'hi' }, { toolCallId: 'b' });
		expect(plain).toMatchObject({ content: 'said hi', value: { text: 'hi' } });
	});

	it('answers at the deadline, aborts the tool signal, and drops the late result (bounded too)', async () => {
		let signal: AbortSignal | undefined;
		let finish: (observation: ToolObservation) => void = () => undefined;
		const slow = tool(
			(_args, options) =>
				new Promise((resolve) => {
					signal = options.signal;
					finish = resolve;
				}),
		);
		const pending = withToolTimeout(slow, 1500, { boundary }).invoke({}, { toolCallId: 'a' });
		await vi.advanceTimersByTimeAsync(1500);
		const observation = await pending;
		expect(observation.isError).toBe(true);
		expect(observation.content).toMatch(/^Tool 'echo' did not finish within 1.5 s/);
		// The boundary caps the timeout's own text too.
		expect(observation.content).toContain('[Output truncated: showing the first 60 of');
		expect(signal?.aborted).toBe(true);
		expect(signal?.reason).toMatchObject({ name: 'ToolTimeLimit', timeoutMs: 1500 });
		finish({ content: 'late', isError: false });
		await vi.advanceTimersByTimeAsync(0);
	});

	it("the caller's abort stops the call at once with a stopped observation", async () => {
		const caller = new AbortController();
		let signal: AbortSignal | undefined;
		const hanging = tool((_args, options) => {
			signal = options.signal;
			return new Promise(() => undefined);
		});
		const pending = withToolTimeout(hanging, 60_000).invoke(
			{},
			{ toolCallId: 'a', signal: caller.signal },
		);
		caller.abort(new Error('user left'));
		const observation = await pending;
		expect(observation).toMatchObject({ isError: true });
		expect(observation.content).toMatch(/^Tool 'echo' was stopped before it finished: /);
		expect(signal?.aborted).toBe(true);
	});

	it('a call whose caller already stopped never starts', async () => {
		const invoke = vi.fn();
		const observation = await withToolTimeout(tool(invoke), 1000, { boundary }).invoke(
			{},
			{ toolCallId: 'a', signal: AbortSignal.abort() },
		);
		expect(invoke).not.toHaveBeenCalled();
		expect(observation.isError).toBe(true);
	});

	it('a rejecting tool rejects the call once; its signal is handed on for the next call', async () => {
		const seen: AbortSignal[] = [];
		const failing = tool(async (_args, options) => {
			seen.push(options.signal!);
			throw new Error('broken');
		});
		const timed = withToolTimeout(failing, 1000);
		await expect(timed.invoke({}, { toolCallId: 'a' })).rejects.toThrow('broken');
		await expect(timed.invoke({}, { toolCallId: 'b' })).rejects.toThrow('broken');
		expect(seen[1]).toBe(seen[0]);
		expect(seen[0].aborted).toBe(false);
	});

	it('an observation the boundary cannot take rejects the call instead of leaving it pending', async () => {
		const broken = tool(
			async () => ({ content: 42, isError: false }) as unknown as ToolObservation,
		);
		await expect(
			withToolTimeout(broken, 1000, { boundary }).invoke({}, { toolCallId: 'a' }),
		).rejects.toThrow(TypeError);
	});

	it('0 ms sets no limit: the tool unchanged, or only bounded', async () => {
		const echo = tool(async () => ({ content: `key ${secret}`, isError: false }));
		expect(withToolTimeout(echo, 0)).toBe(echo);
		const bounded = withToolTimeout(echo, 0, { boundary });
		expect(await bounded.invoke({}, { toolCallId: 'a' })).toEqual({
			content: 'key [REDACTED]',
			isError: false,
		});
	});

	it('refuses a boundary that is not one, with INVALID_ARGUMENT', () => {
		const echo = tool(async () => ({ content: '', isError: false }));
		expect(() =>
			withToolTimeout(echo, 1000, { boundary: {} as unknown as OutputBoundary }),
		).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
	});
});
