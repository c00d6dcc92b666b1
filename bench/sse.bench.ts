/**
 * SSE benchmark (npm run bench:sse):
 * 1. parse throughput (MB/s) of the whole chain bytes → text → events → chunks → parts →
 *    assembled turn, on a large stream in OpenRouter's recorded format, read in 64 KB pieces;
 * 2. 256 KB / 512 KB / 1 MB of tool-call arguments in 1-byte deltas: times and their
 *    ratios (≈2 each when assembly is linear; ≈4 would mean quadratic).
 * Anchor, measured in the same run on the same reads: the least any client does with an
 * SSE stream — decode, cut at blank lines, `JSON.parse` every `data:` payload (no parts,
 * no assembly). Each figure is printed with its ratio to the anchor.
 * Prints figures only; nothing is asserted.
 */
import { performance } from 'node:perf_hooks';
import {
	chatFixtureNames,
	frameChunksAsSse,
	loadChatFixtureChunks,
} from '../fixtures/chat/load-chat-fixture';
import { collectTurn } from '../src/chat/collect-turn';
import { parseChatStream } from '../src/chat/parse-chat-stream';
import type { AssistantTurn } from '../src/chat/types';

const pieceSize = 64 * 1024;

async function* inPieces(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
	for (let start = 0; start < bytes.length; start += pieceSize)
		yield bytes.subarray(start, start + pieceSize);
}

async function timeTurn(bytes: Uint8Array): Promise<{ milliseconds: number; turn: AssistantTurn }> {
	const started = performance.now();
	const turn = await collectTurn(parseChatStream(inPieces(bytes)));
	return { milliseconds: performance.now() - started, turn };
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/** A long answer: the text and reasoning chunks of the fixtures over and over, then one finish. */
function largeRecordedStream(targetBytes: number): Uint8Array {
	const body = ['text', 'reasoning', 'parallel-tool-calls']
		.filter((name) => (chatFixtureNames as readonly string[]).includes(name))
		.flatMap((name) => loadChatFixtureChunks(name as (typeof chatFixtureNames)[number]))
		.filter((chunk) => {
			const choice = (
				chunk as { choices?: Array<{ finish_reason?: unknown; delta?: { tool_calls?: unknown } }> }
			).choices?.[0];
			return choice && !choice.finish_reason && !choice.delta?.tool_calls;
		});
	const once = frameChunksAsSse(body, { done: false, processingComment: true });
	const repeats = Math.ceil(targetBytes / Buffer.byteLength(once));
	const finish = frameChunksAsSse(loadChatFixtureChunks('usage-with-cost').slice(-2), {
		processingComment: false,
	});
	return new TextEncoder().encode(once.repeat(repeats) + finish);
}

/**
 * One tool call whose arguments `{"data":"xxx…"}` total `size` bytes, sent one byte per
 * delta; returned as the 64 KB reads a socket would give (built up front, outside V8's heap).
 */
function oneByteArgumentReads(size: number): { reads: Uint8Array[]; bytes: number } {
	const encoder = new TextEncoder();
	const argumentsText = `{"data":"${'x'.repeat(size - 11)}"}`;
	const chunk = (delta: object, finishReason: string | null = null) =>
		`data: ${JSON.stringify({ id: 'gen-bench', model: 'bench/model', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
	const reads: Uint8Array[] = [];
	let pending = chunk({
		role: 'assistant',
		content: null,
		tool_calls: [
			{ index: 0, id: 'call_bench', type: 'function', function: { name: 'store', arguments: '' } },
		],
	});
	let bytes = 0;
	const flush = () => {
		const encoded = encoder.encode(pending);
		for (let start = 0; start < encoded.length; start += pieceSize)
			reads.push(encoded.subarray(start, start + pieceSize));
		bytes += encoded.length;
		pending = '';
	};
	for (const character of argumentsText) {
		pending += chunk({ tool_calls: [{ index: 0, function: { arguments: character } }] });
		if (pending.length >= pieceSize) flush();
	}
	pending += `${chunk({}, 'tool_calls')}data: [DONE]\n\n`;
	flush();
	return { reads, bytes };
}

async function* replay(reads: Uint8Array[]): AsyncGenerator<Uint8Array> {
	for (const read of reads) yield read;
}

/** The anchor: decode, cut events at blank lines, JSON.parse each data payload; nothing else. */
function timeAnchor(reads: Uint8Array[]): number {
	(globalThis as { gc?: () => void }).gc?.();
	const started = performance.now();
	const decoder = new TextDecoder();
	let buffered = '';
	let parsed = 0;
	for (const read of reads) {
		buffered += decoder.decode(read, { stream: true });
		let start = 0;
		for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n', start)) {
			for (const line of buffered.slice(start, end).split('\n')) {
				if (line.startsWith('data: ') && line !== 'data: [DONE]') {
					JSON.parse(line.slice(6));
					parsed++;
				}
			}
			start = end + 2;
		}
		buffered = buffered.slice(start);
	}
	const milliseconds = performance.now() - started;
	if (parsed === 0) throw new Error('the anchor parsed nothing');
	return milliseconds;
}

function readsOf(bytes: Uint8Array): Uint8Array[] {
	const reads: Uint8Array[] = [];
	for (let start = 0; start < bytes.length; start += pieceSize)
		reads.push(bytes.subarray(start, start + pieceSize));
	return reads;
}

async function timeReads(
	reads: Uint8Array[],
): Promise<{ milliseconds: number; turn: AssistantTurn }> {
	(globalThis as { gc?: () => void }).gc?.();
	const started = performance.now();
	const turn = await collectTurn(parseChatStream(replay(reads)));
	return { milliseconds: performance.now() - started, turn };
}

async function main(): Promise<void> {
	console.log(
		`Node ${process.version}; stream read in ${pieceSize / 1024} KB pieces; median of 5 runs\n`,
	);

	const large = largeRecordedStream(32 * 1024 * 1024);
	await timeTurn(large); // warm-up
	const largeReads = readsOf(large);
	timeAnchor(largeReads); // warm-up
	const runs: number[] = [];
	const anchorRuns: number[] = [];
	let textLength = 0;
	for (let run = 0; run < 5; run++) {
		const { milliseconds, turn } = await timeTurn(large);
		runs.push(milliseconds);
		anchorRuns.push(timeAnchor(largeReads));
		textLength = turn.text.length;
	}
	const megabytes = large.length / (1024 * 1024);
	console.log(
		`1. Throughput: ${megabytes.toFixed(1)} MB recorded-format stream (${textLength} characters of text) → ${(megabytes / (median(runs) / 1000)).toFixed(1)} MB/s (median ${median(runs).toFixed(0)} ms)`,
	);
	console.log(
		`   anchor (decode + split + JSON.parse only): ${(megabytes / (median(anchorRuns) / 1000)).toFixed(1)} MB/s; ratio chain / anchor: ${(median(runs) / median(anchorRuns)).toFixed(2)}×\n`,
	);

	console.log('2. Tool-call arguments in 1-byte deltas (each delta a full SSE chunk):');
	const sizes = [256 * 1024, 512 * 1024, 1024 * 1024];
	await timeReads(oneByteArgumentReads(64 * 1024).reads); // warm-up
	const times: number[] = [];
	for (const size of sizes) {
		const { reads, bytes } = oneByteArgumentReads(size);
		const samples: number[] = [];
		const anchorSamples: number[] = [];
		for (let run = 0; run < 5; run++) {
			const { milliseconds, turn } = await timeReads(reads);
			if (turn.toolCalls[0]?.argumentsText.length !== size || turn.toolCalls[0].error)
				throw new Error(`assembly failed at ${size} bytes`);
			samples.push(milliseconds);
			anchorSamples.push(timeAnchor(reads));
		}
		times.push(median(samples));
		console.log(
			`   ${String(size / 1024).padStart(4)} KB of arguments (${(bytes / 1048576).toFixed(1)} MB of SSE, ${size} deltas): ${median(samples).toFixed(0)} ms, ${((median(samples) * 1000) / size).toFixed(2)} µs per delta; anchor ${((median(anchorSamples) * 1000) / size).toFixed(2)} µs, ratio ${(median(samples) / median(anchorSamples)).toFixed(2)}×`,
		);
	}
	console.log(
		`   ratios: 512/256 = ${(times[1] / times[0]).toFixed(2)}, 1024/512 = ${(times[2] / times[1]).toFixed(2)} (linear ≈ 2, quadratic ≈ 4)`,
	);
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
