/**
 * The chat client's time limits when nothing is set, and the total deadline of a model call:
 * a loopback server that never finishes but sends a keep-alive comment every 50 ms defeats
 * every inactivity limit (response, stall) — only the total cuts it off. Limits are asserted
 * by the error they produce; the only clock checks are generous upper bounds.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChatModelCaller } from '../../src/agent/create-chat-model-caller';
import { defaultChatTimeLimits, resolveChatTimeLimits } from '../../src/chat/chat-time-limits';
import { streamChat, type ChatClientOptions } from '../../src/chat/stream-chat';
import type { ChatRequest } from '../../src/chat/types';
import { ChatTimeoutError } from '../../src/errors/chat-timeout-error';
import { textReply, type FakeReply } from '../support/fake-chat-server';
import { fakeChatServerPerTest } from '../support/fake-chat-server-hooks';

const request: ChatRequest = { model: 'fake/model', messages: [{ role: 'user', content: 'Hi' }] };
const serve = fakeChatServerPerTest();

/** The first token, then keep-alive comments every 50 ms, forever: no finish_reason, no [DONE]. */
const trickle = (): FakeReply => ({
	chunks: textReply('Hello').chunks!.slice(0, 2),
	trickleEveryMs: 50,
});

async function drain(options: ChatClientOptions): Promise<unknown> {
	try {
		for await (const part of streamChat(request, options)) void part;
	} catch (error) {
		return error;
	}
	throw new Error('the stream ended');
}

describe('defaults', () => {
	it('a call that sets no limit gets response 300 s, first token 60 s, stall 30 s, total 300 s', () => {
		expect(resolveChatTimeLimits({})).toEqual({
			timeoutMs: 300_000,
			firstTokenTimeoutMs: 60_000,
			stallTimeoutMs: 30_000,
			totalTimeoutMs: 300_000,
		});
		expect(resolveChatTimeLimits({})).toEqual(defaultChatTimeLimits);
	});

	it('0 switches a limit off; given values are kept', () => {
		expect(
			resolveChatTimeLimits({
				timeoutMs: 0,
				firstTokenTimeoutMs: 0,
				stallTimeoutMs: 0,
				totalTimeoutMs: 0,
			}),
		).toEqual({ timeoutMs: 0, firstTokenTimeoutMs: 0, stallTimeoutMs: 0, totalTimeoutMs: 0 });
		expect(resolveChatTimeLimits({ stallTimeoutMs: 5_000, totalTimeoutMs: 90_000 })).toMatchObject({
			stallTimeoutMs: 5_000,
			totalTimeoutMs: 90_000,
			firstTokenTimeoutMs: 60_000,
		});
	});
});

describe('the defaults apply to a streamChat call that sets nothing (fake timers, injected fetch)', () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	/**
	 * A body that sends `first` (if any), then `: keep-alive` every second when `keepAlive`,
	 * else nothing; it fails when the request's signal aborts, as fetch's body does.
	 */
	function fakeFetch(first: string | undefined, keepAlive: boolean): typeof fetch {
		return async (_url, init) => {
			let timer: ReturnType<typeof setInterval> | undefined;
			const body = new ReadableStream<Uint8Array>({
				start(controller) {
					if (first !== undefined) controller.enqueue(new TextEncoder().encode(first));
					if (keepAlive)
						timer = setInterval(
							() => controller.enqueue(new TextEncoder().encode(': keep-alive\n\n')),
							1_000,
						);
					init?.signal?.addEventListener('abort', () => {
						clearInterval(timer);
						controller.error(init.signal?.reason);
					});
				},
				cancel() {
					clearInterval(timer);
				},
			});
			return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
		};
	}

	const firstChunk = `data: ${JSON.stringify(textReply('Hello').chunks![1])}\n\n`;

	it.each([
		['only keep-alive comments, no token', 'first-token', 60_000, undefined, true],
		['a token, then nothing', 'stall', 30_000, firstChunk, false],
		['a token, then keep-alive comments forever', 'total', 300_000, firstChunk, true],
	] as const)('%s → %s after %i ms', async (_label, phase, timeoutMs, first, keepAlive) => {
		// Only the clock and timers: the body's stream machinery keeps its real scheduling.
		vi.useFakeTimers({
			toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
		});
		const outcome = drain({
			baseUrl: 'http://fake.invalid/v1',
			fetch: fakeFetch(first, keepAlive),
			retry: { maxRetries: 0 },
		});
		await vi.advanceTimersByTimeAsync(timeoutMs - 1_000);
		let settled = false;
		void outcome.then(() => (settled = true));
		await vi.advanceTimersByTimeAsync(0);
		expect(settled).toBe(false);
		await vi.advanceTimersByTimeAsync(2_000);
		const error = await outcome;
		expect(error).toBeInstanceOf(ChatTimeoutError);
		expect(error).toMatchObject({ phase, timeoutMs });
	});
});

describe('the total deadline against a trickling loopback server', () => {
	it('cuts off a stream that keeps sending bytes; the stall limit never fires; not retried', async () => {
		const fake = await serve(trickle);
		const started = Date.now();
		const error = await drain({
			baseUrl: fake.baseUrl,
			stallTimeoutMs: 1_000,
			totalTimeoutMs: 2_000,
			retry: { maxRetries: 2, baseDelayMs: 1 },
		});
		expect(error).toBeInstanceOf(ChatTimeoutError);
		expect(error).toMatchObject({ phase: 'total', timeoutMs: 2_000, code: 'CHAT_TIMEOUT' });
		expect((error as Error).message).toBe(
			'The model call did not finish within 2000 ms in all and was stopped (option totalTimeoutMs).',
		);
		// Bytes came every 50 ms, so the 1 s stall limit never ran out (twice over); the total did.
		expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
		expect(Date.now() - started).toBeLessThan(8_000);
		expect(fake.requests).toHaveLength(1);
		// The request was aborted: the server saw the connection close.
		await fake.requests[0].closed;
	});

	it('bounds the whole model call of the agent: stall retries and fallback models share one deadline', async () => {
		const fake = await serve(({ index }) =>
			index === 0
				? { chunks: textReply('Hel').chunks!.slice(0, 2), stallAfterChunks: 2 }
				: trickle(),
		);
		const callModel = createChatModelCaller({
			baseUrl: fake.baseUrl,
			stallTimeoutMs: 500,
			totalTimeoutMs: 2_500,
			retry: { maxRetries: 0 },
		});
		const started = Date.now();
		const error = await callModel({ ...request, models: ['fake/model', 'fake/other'] }, {}).catch(
			(caught: unknown) => caught,
		);
		expect(error).toBeInstanceOf(ChatTimeoutError);
		// The limit of the whole call, not what was left of it for the stall retry.
		expect(error).toMatchObject({ phase: 'total', timeoutMs: 2_500 });
		expect(Date.now() - started).toBeLessThan(8_000);
		// The stalled stream was asked again (within the budget); the total is no reason to try the fallback model.
		expect(fake.requests.map((entry) => entry.body.model)).toEqual(['fake/model', 'fake/model']);
	});

	it('totalTimeoutMs: 0 switches the deadline off (the stream runs until the caller stops it)', async () => {
		const fake = await serve(trickle);
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 600);
		const error = await drain({
			baseUrl: fake.baseUrl,
			totalTimeoutMs: 0,
			signal: controller.signal,
			retry: { maxRetries: 0 },
		});
		expect(error).toMatchObject({ code: 'CHAT_ABORTED' });
	});
});
