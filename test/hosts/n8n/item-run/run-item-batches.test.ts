import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentOrchestrator } from '../../../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import type { CallModel } from '../../../../src/agent/call-model-step';
import type { AssistantTurn } from '../../../../src/chat/types';
import {
	readItemBatching,
	runItemBatches,
} from '../../../../src/hosts/n8n/item-run/run-item-batches';
import { runAgentEngine } from '../../../../src/hosts/n8n/engine/run-agent-engine';
import { runModeItems } from '../../../../src/hosts/n8n/drivers/run-mode-items';
import { errorReply, textReply } from '../../../support/fake-chat-server';
import { fakeChatServerPerTest } from '../../../support/fake-chat-server-hooks';
import { stubExecuteContext } from '../stub-execute-context';

/** A promise with its resolve, to finish fake work when the test says so. */
function deferred<T = void>() {
	let resolve!: (value: T) => void;
	const promise = new Promise<T>((done) => (resolve = done));
	return { promise, resolve };
}

const flush = async () => {
	for (let round = 0; round < 5; round++) await Promise.resolve();
};

describe('runItemBatches', () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	it('keeps input order whatever order the items of a batch finish in', async () => {
		const gates = [deferred(), deferred(), deferred()];
		const running = runItemBatches(
			3,
			async (index) => {
				await gates[index].promise;
				return `item ${index}`;
			},
			{ batchSize: 3, delayBetweenBatches: 0 },
		);
		gates[2].resolve();
		gates[1].resolve();
		gates[0].resolve();
		expect(await running).toEqual(['item 0', 'item 1', 'item 2']);
	});

	it('runs at most batchSize items at once, and a batch only after the one before has finished', async () => {
		const started: number[] = [];
		const gates = Array.from({ length: 5 }, () => deferred());
		const running = runItemBatches(
			5,
			async (index) => {
				started.push(index);
				await gates[index].promise;
				return index;
			},
			{ batchSize: 2, delayBetweenBatches: 0 },
		);
		await flush();
		expect(started).toEqual([0, 1]);
		gates[1].resolve();
		await flush();
		// Item 0 still runs: the next batch waits for the whole batch.
		expect(started).toEqual([0, 1]);
		gates[0].resolve();
		await flush();
		expect(started).toEqual([0, 1, 2, 3]);
		gates[2].resolve();
		gates[3].resolve();
		await flush();
		expect(started).toEqual([0, 1, 2, 3, 4]);
		gates[4].resolve();
		expect(await running).toEqual([0, 1, 2, 3, 4]);
	});

	it('waits delayBetweenBatches between batches, not before the first nor after the last', async () => {
		vi.useFakeTimers();
		const started: number[] = [];
		const running = runItemBatches(
			3,
			async (index) => {
				started.push(index);
				return index;
			},
			{ batchSize: 2, delayBetweenBatches: 1000 },
		);
		await vi.advanceTimersByTimeAsync(0);
		expect(started).toEqual([0, 1]);
		await vi.advanceTimersByTimeAsync(999);
		expect(started).toEqual([0, 1]);
		await vi.advanceTimersByTimeAsync(1);
		expect(started).toEqual([0, 1, 2]);
		expect(await running).toEqual([0, 1, 2]);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('stops before the next batch when the execution is cancelled, also during the delay', async () => {
		vi.useFakeTimers();
		const controller = new AbortController();
		const started: number[] = [];
		const running = runItemBatches(
			4,
			async (index) => {
				started.push(index);
				return index;
			},
			{ batchSize: 2, delayBetweenBatches: 60_000, signal: controller.signal },
		);
		const outcome = running.catch((error: unknown) => error);
		await vi.advanceTimersByTimeAsync(10);
		controller.abort();
		await vi.advanceTimersByTimeAsync(0);
		expect(await outcome).toMatchObject({
			code: 'AGENT_ABORTED',
			message: 'The agent stopped: the run was aborted; items not started were not run.',
		});
		expect(started).toEqual([0, 1]);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('throws the first failure of a batch (by index) once the batch is done, and runs no later batch', async () => {
		const started: number[] = [];
		const outcome = await runItemBatches(
			4,
			async (index) => {
				started.push(index);
				if (index >= 1) throw new Error(`item ${index} failed`);
				return index;
			},
			{ batchSize: 3, delayBetweenBatches: 0 },
		).catch((error: unknown) => error);
		expect(outcome).toEqual(new Error('item 1 failed'));
		expect(started).toEqual([0, 1, 2]);
	});

	it.each([
		[{}, { batchSize: 1, delayBetweenBatches: 0 }],
		[
			{ batching: { batchSize: 3, delayBetweenBatches: 250 } },
			{ batchSize: 3, delayBetweenBatches: 250 },
		],
		[
			{ batching: { batchSize: 0, delayBetweenBatches: -5 } },
			{ batchSize: 1, delayBetweenBatches: 0 },
		],
		[{ batching: { batchSize: 2.7 } }, { batchSize: 2, delayBetweenBatches: 0 }],
	])('reads "Batch Processing" %j', (options, expected) => {
		expect(readItemBatching(stubExecuteContext({ options }).context)).toEqual(expected);
	});
});

const answer = (text: string): AssistantTurn => ({
	text,
	reasoning: '',
	reasoningDetails: [],
	toolCalls: [],
	finishReason: 'stop',
	rawFinishReason: 'stop',
});

/** A fake model that counts how many calls run at once; each answers after a few ticks with the prompt in upper case. */
function countingModel(failFor?: string) {
	let running = 0;
	const counts = { max: 0, calls: 0 };
	const callModel: CallModel = async (request) => {
		running += 1;
		counts.calls += 1;
		counts.max = Math.max(counts.max, running);
		await new Promise((resolve) => setTimeout(resolve, 5));
		running -= 1;
		const prompt = String(request.messages.at(-1)?.content);
		if (prompt === failFor) throw new Error(`model failed on ${prompt}`);
		return answer(prompt.toUpperCase());
	};
	return { callModel, counts };
}

const failItem = (error: unknown, itemIndex: number): INodeExecutionData => ({
	json: { error: (error as Error).message },
	pairedItem: { item: itemIndex },
});

describe('Batch Processing in the item runners', () => {
	const items = ['a', 'b', 'c', 'd', 'e'].map((chatInput) => ({ json: { chatInput } }));

	it('nested mode: batches bound the concurrent model calls; the output keeps input order; a failed item stays at its index', async () => {
		const { callModel, counts } = countingModel('c');
		const { context } = stubExecuteContext({ items, options: { batching: { batchSize: 2 } } });
		const output = await runModeItems(context, 'nested', failItem, { callModel });
		expect(counts).toEqual({ max: 2, calls: 5 });
		expect(output.map((item) => item.json.output ?? item.json.error)).toEqual([
			'A',
			'B',
			expect.stringContaining('model failed on c'),
			'D',
			'E',
		]);
		expect(output.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
	});

	it('one item at a time without the option, as before', async () => {
		const { callModel, counts } = countingModel();
		const { context } = stubExecuteContext({ items });
		await runModeItems(context, 'nested', failItem, { callModel });
		expect(counts).toEqual({ max: 1, calls: 5 });
	});

	const start = fakeChatServerPerTest();

	it('full mode, in-process, through the node: continue on fail puts the failed item at its index', async () => {
		const fake = await start(({ body }) => {
			const prompt = body.messages.at(-1).content as string;
			return prompt === 'b' ? errorReply(400, 'bad b') : textReply(`answer ${prompt}`);
		});
		const { context } = stubExecuteContext({
			baseUrl: fake.baseUrl,
			items: items.slice(0, 3),
			continueOnFail: true,
			options: { batching: { batchSize: 2 } },
		});
		const [output] = (await new AgentOrchestrator().execute.call(
			context as IExecuteFunctions,
		)) as INodeExecutionData[][];
		expect(output.map((item) => item.json.output ?? item.json.code)).toEqual([
			'answer a',
			'CHAT_BAD_REQUEST',
			'answer c',
		]);
		expect(fake.requests).toHaveLength(3);
	});
});

describe('Batch Processing in the engine driver', () => {
	const items = ['a', 'b', 'c', 'd', 'e'].map((chatInput) => ({ json: { chatInput } }));

	it('bounds how many items run their model calls at once; the output keeps input order; a failed item stays at its index', async () => {
		const { callModel, counts } = countingModel('b');
		const { context } = stubExecuteContext({ items, options: { batching: { batchSize: 3 } } });
		const output = (await runAgentEngine(context, undefined, {
			failItem,
			callModel,
		})) as INodeExecutionData[][];
		expect(counts).toEqual({ max: 3, calls: 5 });
		expect(output[0].map((item) => item.json.output ?? item.json.error)).toEqual([
			'A',
			expect.stringContaining('model failed on b'),
			'C',
			'D',
			'E',
		]);
		expect(output[0].map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
	});

	it('runs one item at a time without the option, as before', async () => {
		const { callModel, counts } = countingModel();
		const { context } = stubExecuteContext({ items });
		await runAgentEngine(context, undefined, { failItem, callModel });
		expect(counts).toEqual({ max: 1, calls: 5 });
	});
});
