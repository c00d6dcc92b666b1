/**
 * Issue 9: model fallback (OpenRouter `models` on the wire, and the client-side fallback
 * for other servers), stream stall limits, and the per-tool and whole-run time limits.
 * Limits are asserted by the error they produce, never by wall-clock numbers.
 */
import { describe, expect, it } from 'vitest';
import {
	createChatModelCaller,
	type ChatConnection,
} from '../../src/agent/create-chat-model-caller';
import { runAgent } from '../../src/agent/run-agent';
import { chatCompletion } from '../../src/chat/chat-completion';
import { agentOutputItem } from '../../src/agent/output-format/agent-output-item';
import {
	errorReply,
	textReply,
	toolCallReply,
	type FakeReply,
	type FakeRequest,
} from '../support/fake-chat-server';
import { fakeChatServerPerTest } from '../support/fake-chat-server-hooks';
import { sha256Tool } from '../agent/test-tools';

const serve = fakeChatServerPerTest();

/** What OpenRouter does with `models`: it tries them in order on its side and names the one that answered in every chunk. */
function openRouterEmulation(down: Set<string>) {
	return ({ body }: FakeRequest): FakeReply => {
		const candidates: string[] = Array.isArray(body.models) ? body.models : [body.model];
		const answering = candidates.find((model) => !down.has(model));
		if (!answering)
			return errorReply(503, 'No endpoints available for any of the requested models');
		return textReply(`answered by ${answering}`, { model: answering });
	};
}

describe('model fallback', () => {
	it('OpenRouter: `models` is sent once; OpenRouter picks the second model and the output says so', async () => {
		const fake = await serve(openRouterEmulation(new Set(['anthropic/claude-sonnet-4'])));
		const connection: ChatConnection = {
			baseUrl: 'https://openrouter.ai/api/v1',
			retry: { maxRetries: 0 },
			fetch: (input, init) =>
				fetch(String(input).replace('https://openrouter.ai/api/v1', fake.baseUrl), init),
		};
		const { result } = await runAgent({
			input: {
				config: { model: 'anthropic/claude-sonnet-4', fallbackModels: ['openai/gpt-4o-mini'] },
				prompt: 'hi',
			},
			tools: [],
			callModel: createChatModelCaller(connection),
		});
		expect(fake.requests).toHaveLength(1);
		expect(fake.requests[0].body.models).toEqual([
			'anthropic/claude-sonnet-4',
			'openai/gpt-4o-mini',
		]);
		expect(agentOutputItem(result, { format: 'full' })).toMatchObject({
			output: 'answered by openai/gpt-4o-mini',
			model: 'openai/gpt-4o-mini',
		});
	});

	it('another server: the first model fails with 503, the caller asks the second; no `models` on the wire', async () => {
		const fake = await serve(({ body }) =>
			body.model === 'big-model'
				? errorReply(503, 'overloaded')
				: textReply(`answered by ${body.model}`, { model: body.model }),
		);
		const { result } = await runAgent({
			input: { config: { model: 'big-model', fallbackModels: ['small-model'] }, prompt: 'hi' },
			tools: [],
			callModel: createChatModelCaller({ baseUrl: fake.baseUrl, retry: { maxRetries: 0 } }),
		});
		expect(fake.requests.map((request) => request.body.model)).toEqual([
			'big-model',
			'small-model',
		]);
		expect(fake.requests.every((request) => !('models' in request.body))).toBe(true);
		expect(result).toMatchObject({ output: 'answered by small-model', model: 'small-model' });
	});

	it('another server: a 400 is not a reason to fall back', async () => {
		const fake = await serve(() => errorReply(400, 'bad parameter'));
		const call = createChatModelCaller({ baseUrl: fake.baseUrl, retry: { maxRetries: 0 } });
		await expect(
			call({ model: 'a', messages: [{ role: 'user', content: 'hi' }] }, { fallbackModels: ['b'] }),
		).rejects.toMatchObject({ status: 400 });
		expect(fake.requests).toHaveLength(1);
	});
});

describe('stream stall limits', () => {
	it('a stream that stops mid-way ends in the stall error (stallTimeoutMs), although timeoutMs is long', async () => {
		const fake = await serve(() =>
			textReply('a slow and stalling answer', { deltaSize: 4, reply: { stallAfterChunks: 3 } }),
		);
		const parts: string[] = [];
		await expect(
			chatCompletion(
				{ model: 'm', messages: [{ role: 'user', content: 'hi' }] },
				{
					baseUrl: fake.baseUrl,
					timeoutMs: 60_000,
					stallTimeoutMs: 150,
					retry: { maxRetries: 0 },
					onPart: (part) => void (part.type === 'text-delta' && parts.push(part.text)),
				},
			),
		).rejects.toMatchObject({
			name: 'ChatTimeoutError',
			code: 'CHAT_STREAM_STALLED',
			phase: 'stall',
			message:
				"The model's stream stalled: no data for 150 ms after it had started (option stallTimeoutMs).",
		});
		expect(parts.join('')).toBe('a slow a');
	});

	it('the caller requests a stalled turn again (nothing was executed yet) and gets the answer', async () => {
		const fake = await serve(({ index }) =>
			index === 0
				? textReply('stalled answer', { reply: { stallAfterChunks: 2 } })
				: textReply('complete answer'),
		);
		const call = createChatModelCaller({
			baseUrl: fake.baseUrl,
			stallTimeoutMs: 150,
			retry: { maxRetries: 0 },
		});
		const turn = await call({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, {});
		expect(turn.text).toBe('complete answer');
		expect(fake.requests).toHaveLength(2);
	});

	it('no first token (only keep-alive comments) within firstTokenTimeoutMs → retried, then the error', async () => {
		const fake = await serve(() => ({
			...textReply('never'),
			processingComments: 1,
			stallAfterChunks: 0,
		}));
		await expect(
			chatCompletion(
				{ model: 'm', messages: [{ role: 'user', content: 'hi' }] },
				{
					baseUrl: fake.baseUrl,
					firstTokenTimeoutMs: 100,
					retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 },
				},
			),
		).rejects.toMatchObject({ phase: 'first-token', code: 'CHAT_STREAM_STALLED' });
		expect(fake.requests).toHaveLength(2);
	});
});

describe('tool and run time limits', () => {
	it('a tool that runs too long is stopped (its signal aborts) and the model reads a timeout observation', async () => {
		let aborted = false;
		const slow = {
			...sha256Tool(),
			invoke: (_args: Record<string, unknown>, options: { signal?: AbortSignal }) =>
				new Promise<never>((_resolve, reject) =>
					options.signal?.addEventListener('abort', () => {
						aborted = true;
						reject(new Error('aborted'));
					}),
				),
		};
		const fake = await serve(({ body }) =>
			body.messages.some((message: { role: string }) => message.role === 'tool')
				? textReply('gave up on the tool')
				: toolCallReply([{ id: 't1', name: 'sha256', arguments: { text: 'x' } }]),
		);
		const { result } = await runAgent({
			input: { config: { model: 'm' }, prompt: 'hash x' },
			tools: [slow],
			callModel: createChatModelCaller({ baseUrl: fake.baseUrl }),
			toolTimeoutMs: 100,
		});
		expect(aborted).toBe(true);
		expect(result.steps[0]).toMatchObject({
			isError: true,
			result:
				"Tool 'sha256' did not finish within 0.1 s and was stopped. Try different arguments, another tool, or answer without this result.",
		});
		expect(fake.requests[1].body.messages.at(-1).content).toContain('did not finish within 0.1 s');
	});

	it('the whole run stops at runTimeoutMs with a clear reason', async () => {
		const fake = await serve(() => textReply('late', { reply: { chunkDelayMs: 400 } }));
		await expect(
			runAgent({
				input: { config: { model: 'm' }, prompt: 'hi' },
				tools: [],
				callModel: createChatModelCaller({ baseUrl: fake.baseUrl }),
				runTimeoutMs: 100,
			}),
		).rejects.toMatchObject({
			code: 'AGENT_ABORTED',
			message: 'The agent stopped: aborted (the whole run exceeded its time limit of 0.1 s).',
		});
	});
});
