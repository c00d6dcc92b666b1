import type { IExecuteFunctions } from 'n8n-workflow';
import { AgentStoppedError } from '../../../agent/agent-stopped-error';
import { emptyUsage } from '../../../agent/add-usage';
import { abortReason } from '../../../agent/stop-agent';

/** The node's "Batch Processing" option (`options.batching`), named as on n8n's AI Agent. */
export interface ItemBatching {
	/** How many items run at the same time (at least 1). */
	batchSize: number;
	/** Milliseconds to wait between two batches. */
	delayBetweenBatches: number;
}

/**
 * The execution's "Batch Processing" (read at item 0: one value per execution, as n8n's AI
 * Agent does). Absent: one item at a time, no delay, as before the option existed.
 */
export function readItemBatching(context: IExecuteFunctions): ItemBatching {
	const options = context.getNodeParameter('options', 0, {}) as {
		batching?: { batchSize?: unknown; delayBetweenBatches?: unknown };
	};
	const batchSize = Number(options.batching?.batchSize ?? 1);
	const delay = Number(options.batching?.delayBetweenBatches ?? 0);
	return {
		batchSize: Number.isFinite(batchSize) ? Math.max(1, Math.floor(batchSize)) : 1,
		delayBetweenBatches: Number.isFinite(delay) ? Math.max(0, delay) : 0,
	};
}

/**
 * Runs `runItem` for items `0 … count-1` in batches: the items of a batch at the same time,
 * batches one after another, `delayBetweenBatches` ms apart. Results come back in item
 * order. `runItem` turns an item's failure into its result itself (continue on fail); when it
 * throws instead, the batch is finished and the first item's error (by index) is thrown, so
 * later batches do not run.
 *
 * @throws {AgentStoppedError} `AGENT_ABORTED` when `signal` aborts before a batch or during a
 *   delay: no further batch starts.
 * @throws what `runItem` throws.
 */
export async function runItemBatches<Result>(
	count: number,
	runItem: (itemIndex: number) => Promise<Result>,
	options: ItemBatching & { signal?: AbortSignal },
): Promise<Result[]> {
	const { batchSize, delayBetweenBatches, signal } = options;
	const results: Result[] = [];
	for (let start = 0; start < count; start += batchSize) {
		if (start > 0 && delayBetweenBatches > 0) await sleep(delayBetweenBatches, signal);
		if (signal?.aborted) throw abortedError(signal);
		const indexes = Array.from(
			{ length: Math.min(batchSize, count - start) },
			(_unused, offset) => start + offset,
		);
		const settled = await Promise.allSettled(indexes.map((itemIndex) => runItem(itemIndex)));
		for (const outcome of settled) {
			if (outcome.status === 'rejected') throw outcome.reason;
			results.push(outcome.value);
		}
	}
	return results;
}

function abortedError(signal: AbortSignal): AgentStoppedError {
	return new AgentStoppedError(
		'aborted',
		`The agent stopped: ${abortReason(signal)}; items not started were not run.`,
		{
			steps: [],
			usage: emptyUsage(),
			iterations: 0,
		},
	);
}

/** Waits `ms`, or less when `signal` aborts (the caller then sees the signal aborted). */
async function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
	if (signal?.aborted) return;
	await new Promise<void>((resolve) => {
		const done = (): void => {
			clearTimeout(timer);
			signal?.removeEventListener('abort', done);
			resolve();
		};
		const timer = setTimeout(done, ms);
		signal?.addEventListener('abort', done, { once: true });
	});
}
