/**
 * Per-iteration overhead of the agent loop against the bare HTTP round trip, both against
 * the same loopback fake OpenAI-compatible server with zero latency, in one run.
 *
 * - loop: runAgent with the real chat client (fetch + SSE parsing + delta assembly), the
 *   state machine, and one trivial tool call per iteration;
 * - bare: the very same request bodies (recorded from the loop run) POSTed with fetch, the
 *   same headers, the response read as a stream and each SSE `data:` payload JSON-parsed
 *   (the least any streaming client does with the answer): no delta assembly, no state, no
 *   tools, no timeouts, no abort signal;
 * - raw: the same requests with the body read whole as text (`response.text()`), no
 *   parsing at all — printed for reference, a floor no client that uses the answer reaches.
 *
 * - langchain: LangChain's agent (`createAgent` from `langchain` 1.x, the successor of
 *   AgentExecutor: a LangGraph model → tools loop) with ChatOpenAI's Chat Completions model
 *   (`@langchain/openai`, streaming, as ours) and the same trivial tool as a LangChain `tool()`, on the same fake.
 *
 * The paths run interleaved, round after round; a ratio is the median of the per-round
 * ratios (paired, so drift on a busy machine hits both sides alike), and the same for CPU
 * time (client and in-process server together), which other processes disturb less than
 * wall time. The heap is collected before each measured run. Goals: loop ≤ 1.2× bare, loop ≤ 0.5× LangChain. Timings are printed, never
 * asserted.
 *
 *   npm run bench:loop [-- --iterations 40 --rounds 11]
 */
import { performance } from 'node:perf_hooks';
import { tool } from '@langchain/core/tools';
import { ChatOpenAICompletions } from '@langchain/openai';
import { createAgent } from 'langchain';
import { z } from 'zod';
import type { AgentTool } from '../src/agent/agent-tool';
import { createChatModelCaller } from '../src/agent/create-chat-model-caller';
import { runAgent } from '../src/agent/run-agent';
import { startFakeChatServer, textReply, toolCallReply } from '../test/support/fake-chat-server';

function argument(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const iterations = argument('iterations', 40);
const rounds = argument('rounds', 11);

const incrementTool: AgentTool = {
	name: 'increment',
	description: 'Adds one to n',
	parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
	invoke: async (args) => ({ content: String(Number(args.n) + 1), isError: false }),
};

/**
 * ChatOpenAI's Chat Completions model (what `ChatOpenAI` delegates to) estimates token
 * counts after every streamed call with tiktoken, whose encoding it downloads on first use;
 * offline that download fails (with retries) on every call, a network cost that is not
 * LangChain's loop. This counts tokens as LangChain's own fallback does (length / 4),
 * cheaper than a real tiktoken count: the comparison errs in LangChain's favour.
 */
class OfflineChatOpenAI extends ChatOpenAICompletions {
	override async getNumTokens(content: Parameters<ChatOpenAICompletions['getNumTokens']>[0]): Promise<number> {
		return Math.ceil((typeof content === 'string' ? content : JSON.stringify(content)).length / 4);
	}
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function main(): Promise<void> {
	const server = await startFakeChatServer({
		respond: ({ body }) => {
			const done = (body.messages as Array<{ role: string }>).filter((message) => message.role === 'tool').length;
			// Unique completion ids, as real providers send: LangGraph merges messages with equal ids.
			return done < iterations ? toolCallReply([{ id: `call_${done}`, name: 'increment', arguments: { n: done } }], { id: `gen-${done}` }) : textReply(`Final: ${done}`, { id: 'gen-final' });
		},
	});
	const callModel = createChatModelCaller({ baseUrl: server.baseUrl, retry: { maxRetries: 0 } });
	const url = `${server.baseUrl}/chat/completions`;
	const modelCalls = iterations + 1;

	const runLoop = async (): Promise<number> => {
		const started = performance.now();
		const { result } = await runAgent({
			input: { config: { model: 'bench/model', maxIterations: iterations + 1, repeatedCallLimit: 1_000 }, prompt: 'count' },
			tools: [incrementTool],
			callModel,
		});
		const elapsed = performance.now() - started;
		if (result.output !== `Final: ${iterations}`) throw new Error(`unexpected output ${result.output}`);
		return elapsed;
	};

	// One recorded run gives the exact request bodies (with the growing history) the bare client replays.
	server.requests.length = 0;
	await runLoop();
	const bodies = server.requests.slice(-modelCalls).map((request) => request.body as object);
	if (bodies.length !== modelCalls) throw new Error('could not record the loop requests');

	const headers = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
	const runBare = async (): Promise<number> => {
		const started = performance.now();
		let chunks = 0;
		for (const body of bodies) {
			// A bare client still serializes its request body, and reads what comes back.
			const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
			const reader = (response.body as ReadableStream<Uint8Array>).getReader();
			const decoder = new TextDecoder();
			let buffered = '';
			for (;;) {
				const { done, value } = await reader.read();
				if (done) break;
				buffered += decoder.decode(value, { stream: true });
				for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
					const event = buffered.slice(0, end);
					buffered = buffered.slice(end + 2);
					if (event.startsWith('data: ') && event !== 'data: [DONE]') {
						JSON.parse(event.slice(6));
						chunks++;
					}
				}
			}
		}
		const elapsed = performance.now() - started;
		if (chunks < bodies.length) throw new Error('the bare client parsed no chunks');
		return elapsed;
	};
	const runRaw = async (): Promise<number> => {
		const started = performance.now();
		for (const body of bodies) {
			const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
			await response.text();
		}
		return performance.now() - started;
	};

	// LangChain's agent on the same fake: same tool, same replies, streaming like ours.
	const langChainAgent = createAgent({
		model: new OfflineChatOpenAI({ model: 'bench/model', apiKey: 'bench-key', streaming: true, maxRetries: 0, configuration: { baseURL: server.baseUrl } }),
		tools: [tool(async ({ n }: { n: number }) => String(n + 1), { name: 'increment', description: 'Adds one to n', schema: z.object({ n: z.number() }) })],
	});
	const runLangChain = async (): Promise<number> => {
		const started = performance.now();
		const result = await langChainAgent.invoke({ messages: [{ role: 'user', content: 'count' }] }, { recursionLimit: 3 * modelCalls + 10 });
		const elapsed = performance.now() - started;
		const answer = result.messages.at(-1)?.content;
		if (answer !== `Final: ${iterations}`) throw new Error(`unexpected LangChain output ${JSON.stringify(answer)}`);
		return elapsed;
	};

	// Warm-up every path (JIT, sockets), then interleave rounds so drift hits all alike.
	for (let warmUp = 0; warmUp < 3; warmUp++) {
		await runLoop();
		await runBare();
		await runRaw();
	}
	await runLangChain();
	/** Runs one path; returns its wall and CPU milliseconds. */
	const measure = async (run: () => Promise<number>): Promise<{ wall: number; cpu: number }> => {
		server.requests.length = 0;
		// Each path starts on a collected heap: no path pays for the garbage of the one before
		// (LangChain's, mostly). Needs --expose-gc (the npm script passes it).
		(globalThis as { gc?: () => void }).gc?.();
		const cpuBefore = process.cpuUsage();
		const wall = await run();
		const cpu = process.cpuUsage(cpuBefore);
		return { wall, cpu: (cpu.user + cpu.system) / 1000 };
	};
	const loopTimes: number[] = [];
	const bareTimes: number[] = [];
	const rawTimes: number[] = [];
	const langChainTimes: number[] = [];
	const bareRatios: number[] = [];
	const bareCpuRatios: number[] = [];
	const rawRatios: number[] = [];
	const langChainRatios: number[] = [];
	for (let round = 0; round < rounds; round++) {
		const loop = await measure(runLoop);
		const bare = await measure(runBare);
		const raw = await measure(runRaw);
		const langChain = await measure(runLangChain);
		loopTimes.push(loop.wall);
		bareTimes.push(bare.wall);
		rawTimes.push(raw.wall);
		langChainTimes.push(langChain.wall);
		bareRatios.push(loop.wall / bare.wall);
		bareCpuRatios.push(loop.cpu / bare.cpu);
		rawRatios.push(loop.wall / raw.wall);
		langChainRatios.push(loop.wall / langChain.wall);
	}
	await server.close();

	// The loop with no HTTP at all: turns handed over in memory (what the state machine and
	// driver cost by themselves), and the same with a JSON round trip of the state before
	// every step (what an engine re-entry adds for persisting the state).
	const inMemoryModel = async (request: { messages: Array<{ role: string }> }) => {
		const done = request.messages.filter((message) => message.role === 'tool').length;
		return done < iterations
			? { text: '', reasoning: '', reasoningDetails: [], toolCalls: [{ id: `call_${done}`, name: 'increment', argumentsText: `{"n":${done}}`, arguments: { n: done } }], finishReason: 'tool-calls' as const, rawFinishReason: 'tool_calls' }
			: { text: `Final: ${done}`, reasoning: '', reasoningDetails: [], toolCalls: [], finishReason: 'stop' as const, rawFinishReason: 'stop' };
	};
	const machineTimes: number[] = [];
	const persistedTimes: number[] = [];
	for (let round = 0; round < rounds * 3; round++) {
		let started = performance.now();
		await runAgent({ input: { config: { model: 'bench/model', maxIterations: iterations + 1, repeatedCallLimit: 1_000 }, prompt: 'count' }, tools: [incrementTool], callModel: inMemoryModel });
		machineTimes.push(performance.now() - started);
		started = performance.now();
		let bytes = 0;
		await runAgent({
			input: { config: { model: 'bench/model', maxIterations: iterations + 1, repeatedCallLimit: 1_000 }, prompt: 'count' },
			tools: [incrementTool],
			callModel: inMemoryModel,
			onState: (state) => {
				const text = JSON.stringify(state);
				bytes = text.length;
				JSON.parse(text);
			},
		});
		persistedTimes.push(performance.now() - started);
		if (round === 0) console.log(`  (final state size: ${(bytes / 1024).toFixed(1)} KiB after ${iterations} tool steps)`);
	}
	const machinePerIteration = median(machineTimes) / modelCalls;
	const persistedPerIteration = median(persistedTimes) / modelCalls;

	const loopPerIteration = median(loopTimes) / modelCalls;
	const barePerIteration = median(bareTimes) / modelCalls;
	const rawPerIteration = median(rawTimes) / modelCalls;
	const langChainPerIteration = median(langChainTimes) / modelCalls;
	const ratio = median(bareRatios);
	const langChainRatio = median(langChainRatios);
	console.log(`agent loop bench: ${iterations} tool iterations + 1 answer per run, ${rounds} rounds (medians), loopback fake, zero latency`);
	console.log(`  loop (runAgent: fetch + SSE parse + state machine + tool):   ${loopPerIteration.toFixed(3)} ms / iteration`);
	console.log(`  bare streaming client (same bodies; fetch + SSE JSON.parse):  ${barePerIteration.toFixed(3)} ms / iteration`);
	console.log(`  raw round trip (same bodies; fetch + response.text()):        ${rawPerIteration.toFixed(3)} ms / iteration`);
	console.log(`  LangChain agent (createAgent + ChatOpenAI, streaming):        ${langChainPerIteration.toFixed(3)} ms / iteration`);
	console.log(`  loop without HTTP (state machine + driver + tool):            ${(machinePerIteration * 1000).toFixed(1)} µs / iteration`);
	console.log(`  … plus a JSON round trip of the state at every step:          ${(persistedPerIteration * 1000).toFixed(1)} µs / iteration`);
	console.log(`  overhead over bare: loop ${(loopPerIteration - barePerIteration).toFixed(3)} ms, LangChain ${(langChainPerIteration - barePerIteration).toFixed(3)} ms / iteration`);
	console.log(`  ratio loop / bare:      ${ratio.toFixed(2)}×  (goal ≤ 1.20×) ${ratio <= 1.2 ? 'OK' : 'ABOVE GOAL'}   [CPU time: ${median(bareCpuRatios).toFixed(2)}×]`);
	console.log(`  ratio loop / raw:       ${median(rawRatios).toFixed(2)}×  (reference only: raw parses nothing)`);
	console.log(`  ratio loop / LangChain: ${langChainRatio.toFixed(2)}×  (goal ≤ 0.50×) ${langChainRatio <= 0.5 ? 'OK' : 'ABOVE GOAL'}`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
