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
 * Each contender runs in its own fresh child process (forked by this one, with the same
 * fake-server settings in each), so one contender's heap and garbage (LangChain's, mostly)
 * never tax another's collections. The loop's child records the request bodies the bare and
 * raw children replay. Every child warms up; then, round after round, the parent asks each
 * for one measurement: the mean of `--runs` agent runs (one run for LangChain's slower
 * agent), on a heap collected first. Each round starts with the next contender, so none
 * always runs right after LangChain's heavy run. A ratio is the median of the per-round
 * ratios (paired, so drift on a busy machine hits both sides alike), printed with the
 * middle half of the rounds, and the same for CPU time (client and its in-process server
 * together), which other processes disturb less than wall time.
 * Goals: loop ≤ 1.2× bare, loop ≤ 0.5× LangChain. Timings are printed, never asserted.
 *
 *   npm run bench:loop [-- --iterations 40 --rounds 31 --runs 4]
 */
import { type ChildProcess, fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { tool } from '@langchain/core/tools';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { createChatModelCaller } from '../src/agent/create-chat-model-caller';
import { runAgent } from '../src/agent/run-agent';
import { startFakeChatServer, textReply, toolCallReply } from '../test/support/fake-chat-server';
import { argument, incrementTool, OfflineChatOpenAI } from './support/loop-fixtures';
import { median, quantile } from './support/stats';

const iterations = argument('iterations', 40);
const rounds = argument('rounds', 31);
const runsPerMeasurement = argument('runs', 4);

type Contender = 'loop' | 'bare' | 'raw' | 'langchain';
type ToChild = { type: 'init'; bodies?: object[] } | { type: 'run' } | { type: 'exit' };
type FromChild =
	{ type: 'ready'; bodies?: object[] } | { type: 'result'; wall: number; cpu: number };

/** A child process: one contender against its own fake server; measured runs on request. */
async function child(
	contender: Contender,
	send: (message: FromChild) => void,
	bodiesFromParent: object[] | undefined,
): Promise<void> {
	const server = await startFakeChatServer({
		respond: ({ body }) => {
			const done = (body.messages as Array<{ role: string }>).filter(
				(message) => message.role === 'tool',
			).length;
			// Unique completion ids, as real providers send: LangGraph merges messages with equal ids.
			return done < iterations
				? toolCallReply([{ id: `call_${done}`, name: 'increment', arguments: { n: done } }], {
						id: `gen-${done}`,
					})
				: textReply(`Final: ${done}`, { id: 'gen-final' });
		},
	});
	const url = `${server.baseUrl}/chat/completions`;
	const modelCalls = iterations + 1;
	let run: () => Promise<number>;
	let bodies: object[] | undefined;

	if (contender === 'loop') {
		const callModel = createChatModelCaller({ baseUrl: server.baseUrl, retry: { maxRetries: 0 } });
		run = async (): Promise<number> => {
			const started = performance.now();
			const { result } = await runAgent({
				input: {
					config: { model: 'bench/model', maxIterations: iterations + 1, repeatedCallLimit: 1_000 },
					prompt: 'count',
				},
				tools: [incrementTool],
				callModel,
			});
			const elapsed = performance.now() - started;
			if (result.output !== `Final: ${iterations}`)
				throw new Error(`unexpected output ${result.output}`);
			return elapsed;
		};
		// One recorded run gives the exact request bodies (with the growing history) the bare client replays.
		server.requests.length = 0;
		await run();
		bodies = server.requests.slice(-modelCalls).map((request) => request.body as object);
		if (bodies.length !== modelCalls) throw new Error('could not record the loop requests');
	} else if (contender === 'bare' || contender === 'raw') {
		const replayed = bodiesFromParent;
		if (!replayed || replayed.length !== modelCalls)
			throw new Error('no recorded bodies to replay');
		const headers = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
		run =
			contender === 'bare'
				? async (): Promise<number> => {
						const started = performance.now();
						let chunks = 0;
						for (const body of replayed) {
							// A bare client still serializes its request body, and reads what comes back.
							const response = await fetch(url, {
								method: 'POST',
								headers,
								body: JSON.stringify(body),
							});
							const reader = (response.body as ReadableStream<Uint8Array>).getReader();
							const decoder = new TextDecoder();
							let buffered = '';
							for (;;) {
								const { done, value } = await reader.read();
								if (done) break;
								buffered += decoder.decode(value, { stream: true });
								for (
									let end = buffered.indexOf('\n\n');
									end !== -1;
									end = buffered.indexOf('\n\n')
								) {
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
						if (chunks < replayed.length) throw new Error('the bare client parsed no chunks');
						return elapsed;
					}
				: async (): Promise<number> => {
						const started = performance.now();
						for (const body of replayed) {
							const response = await fetch(url, {
								method: 'POST',
								headers,
								body: JSON.stringify(body),
							});
							await response.text();
						}
						return performance.now() - started;
					};
	} else {
		// LangChain's agent on the same fake: same tool, same replies, streaming like ours.
		const langChainAgent = createAgent({
			model: new OfflineChatOpenAI({
				model: 'bench/model',
				apiKey: 'bench-key',
				streaming: true,
				maxRetries: 0,
				configuration: { baseURL: server.baseUrl },
			}),
			tools: [
				tool(async ({ n }: { n: number }) => String(n + 1), {
					name: 'increment',
					description: 'Adds one to n',
					schema: z.object({ n: z.number() }),
				}),
			],
		});
		run = async (): Promise<number> => {
			const started = performance.now();
			const result = await langChainAgent.invoke(
				{ messages: [{ role: 'user', content: 'count' }] },
				{ recursionLimit: 3 * modelCalls + 10 },
			);
			const elapsed = performance.now() - started;
			const answer = result.messages.at(-1)?.content;
			if (answer !== `Final: ${iterations}`)
				throw new Error(`unexpected LangChain output ${JSON.stringify(answer)}`);
			return elapsed;
		};
	}

	// Warm-up (JIT, sockets), as before: three runs, one for LangChain's slower agent.
	for (let warmUp = 0; warmUp < (contender === 'langchain' ? 1 : 3); warmUp++) await run();
	process.on('message', (message: ToChild) => {
		if (message.type === 'init') return;
		if (message.type === 'exit') {
			void server.close().then(() => process.exit(0));
			return;
		}
		void (async () => {
			server.requests.length = 0;
			// Each run starts on a collected heap. Needs --expose-gc (passed on to the children).
			(globalThis as { gc?: () => void }).gc?.();
			// A measurement averages a few runs: one ~80 ms run alone is at the mercy of a
			// noisy machine's 100 ms moods. LangChain's runs are long enough by themselves.
			const runs = contender === 'langchain' ? 1 : runsPerMeasurement;
			const cpuBefore = process.cpuUsage();
			let wall = 0;
			for (let repeat = 0; repeat < runs; repeat++) {
				server.requests.length = 0;
				wall += await run();
			}
			const cpu = process.cpuUsage(cpuBefore);
			send({ type: 'result', wall: wall / runs, cpu: (cpu.user + cpu.system) / 1000 / runs });
		})().catch((error: unknown) => {
			console.error(error);
			process.exit(1);
		});
	});
	send(bodies ? { type: 'ready', bodies } : { type: 'ready' });
}

/** Forks a fresh child for one contender; resolves once it has warmed up. */
function spawnContender(
	contender: Contender,
	bodies?: object[],
): Promise<{
	process: ChildProcess;
	bodies?: object[];
	measure: () => Promise<{ wall: number; cpu: number }>;
}> {
	const execArgv = process.execArgv.includes('--expose-gc')
		? process.execArgv
		: [...process.execArgv, '--expose-gc'];
	const childProcess = fork(process.argv[1], [...process.argv.slice(2), '--contender', contender], {
		execArgv,
		serialization: 'advanced',
	});
	// The recorded bodies go over IPC (too large for the environment or the command line).
	childProcess.send({ type: 'init', bodies } satisfies ToChild);
	let pending: ((result: { wall: number; cpu: number }) => void) | undefined;
	return new Promise((resolve, reject) => {
		childProcess.once('exit', (code) => {
			if (code !== 0) reject(new Error(`${contender} child exited with ${code}`));
		});
		childProcess.on('message', (message: FromChild) => {
			if (message.type === 'ready') {
				resolve({
					process: childProcess,
					bodies: message.bodies,
					measure: () =>
						new Promise((resolveRun) => {
							pending = resolveRun;
							childProcess.send({ type: 'run' } satisfies ToChild);
						}),
				});
			} else {
				const resolveRun = pending;
				pending = undefined;
				resolveRun?.({ wall: message.wall, cpu: message.cpu });
			}
		});
	});
}

async function main(): Promise<void> {
	const modelCalls = iterations + 1;
	// One fresh process per contender, all alive for the whole run; the loop's records the bodies.
	const loopChild = await spawnContender('loop');
	const bodies = loopChild.bodies;
	if (!bodies) throw new Error('the loop child recorded no bodies');
	const bareChild = await spawnContender('bare', bodies);
	const rawChild = await spawnContender('raw', bodies);
	const langChainChild = await spawnContender('langchain');
	const children = [loopChild, bareChild, rawChild, langChainChild];

	const loopTimes: number[] = [];
	const bareTimes: number[] = [];
	const rawTimes: number[] = [];
	const langChainTimes: number[] = [];
	const bareRatios: number[] = [];
	const bareCpuRatios: number[] = [];
	const rawRatios: number[] = [];
	const langChainRatios: number[] = [];
	const order = [loopChild, bareChild, rawChild, langChainChild];
	for (let round = 0; round < rounds; round++) {
		// Each round starts with a different contender, so none always runs right after
		// LangChain's heavy run (or first, on a machine that just woke up).
		const measured = new Map<(typeof order)[number], { wall: number; cpu: number }>();
		for (let turn = 0; turn < order.length; turn++) {
			const contender = order[(round + turn) % order.length];
			measured.set(contender, await contender.measure());
		}
		const loop = measured.get(loopChild) as { wall: number; cpu: number };
		const bare = measured.get(bareChild) as { wall: number; cpu: number };
		const raw = measured.get(rawChild) as { wall: number; cpu: number };
		const langChain = measured.get(langChainChild) as { wall: number; cpu: number };
		loopTimes.push(loop.wall);
		bareTimes.push(bare.wall);
		rawTimes.push(raw.wall);
		langChainTimes.push(langChain.wall);
		bareRatios.push(loop.wall / bare.wall);
		bareCpuRatios.push(loop.cpu / bare.cpu);
		rawRatios.push(loop.wall / raw.wall);
		langChainRatios.push(loop.wall / langChain.wall);
	}
	for (const { process: childProcess } of children)
		childProcess.send({ type: 'exit' } satisfies ToChild);

	// The loop with no HTTP at all: turns handed over in memory (what the state machine and
	// driver cost by themselves), and the same with a JSON round trip of the state before
	// every step (what an engine re-entry adds for persisting the state).
	const inMemoryModel = async (request: { messages: Array<{ role: string }> }) => {
		const done = request.messages.filter((message) => message.role === 'tool').length;
		return done < iterations
			? {
					text: '',
					reasoning: '',
					reasoningDetails: [],
					toolCalls: [
						{
							toolCallId: `call_${done}`,
							name: 'increment',
							argumentsText: `{"n":${done}}`,
							arguments: { n: done },
						},
					],
					finishReason: 'tool-calls' as const,
					rawFinishReason: 'tool_calls',
				}
			: {
					text: `Final: ${done}`,
					reasoning: '',
					reasoningDetails: [],
					toolCalls: [],
					finishReason: 'stop' as const,
					rawFinishReason: 'stop',
				};
	};
	const machineTimes: number[] = [];
	const persistedTimes: number[] = [];
	for (let round = 0; round < rounds * 3; round++) {
		let started = performance.now();
		await runAgent({
			input: {
				config: { model: 'bench/model', maxIterations: iterations + 1, repeatedCallLimit: 1_000 },
				prompt: 'count',
			},
			tools: [incrementTool],
			callModel: inMemoryModel,
		});
		machineTimes.push(performance.now() - started);
		started = performance.now();
		let bytes = 0;
		await runAgent({
			input: {
				config: { model: 'bench/model', maxIterations: iterations + 1, repeatedCallLimit: 1_000 },
				prompt: 'count',
			},
			tools: [incrementTool],
			callModel: inMemoryModel,
			onState: (state) => {
				const text = JSON.stringify(state);
				bytes = text.length;
				JSON.parse(text);
			},
		});
		persistedTimes.push(performance.now() - started);
		if (round === 0)
			console.log(
				`  (final state size: ${(bytes / 1024).toFixed(1)} KiB after ${iterations} tool steps)`,
			);
	}
	const machinePerIteration = median(machineTimes) / modelCalls;
	const persistedPerIteration = median(persistedTimes) / modelCalls;

	const loopPerIteration = median(loopTimes) / modelCalls;
	const barePerIteration = median(bareTimes) / modelCalls;
	const rawPerIteration = median(rawTimes) / modelCalls;
	const langChainPerIteration = median(langChainTimes) / modelCalls;
	const ratio = median(bareRatios);
	const langChainRatio = median(langChainRatios);
	console.log(
		`agent loop bench: ${iterations} tool iterations + 1 answer per run, ${rounds} rounds of ${runsPerMeasurement} runs (medians), loopback fake, zero latency`,
	);
	console.log(
		`  loop (runAgent: fetch + SSE parse + state machine + tool):   ${loopPerIteration.toFixed(3)} ms / iteration`,
	);
	console.log(
		`  bare streaming client (same bodies; fetch + SSE JSON.parse):  ${barePerIteration.toFixed(3)} ms / iteration`,
	);
	console.log(
		`  raw round trip (same bodies; fetch + response.text()):        ${rawPerIteration.toFixed(3)} ms / iteration`,
	);
	console.log(
		`  LangChain agent (createAgent + ChatOpenAI, streaming):        ${langChainPerIteration.toFixed(3)} ms / iteration`,
	);
	console.log(
		`  loop without HTTP (state machine + driver + tool):            ${(machinePerIteration * 1000).toFixed(1)} µs / iteration`,
	);
	console.log(
		`  … plus a JSON round trip of the state at every step:          ${(persistedPerIteration * 1000).toFixed(1)} µs / iteration`,
	);
	console.log(
		`  overhead over bare: loop ${(loopPerIteration - barePerIteration).toFixed(3)} ms, LangChain ${(langChainPerIteration - barePerIteration).toFixed(3)} ms / iteration`,
	);
	console.log(
		`  ratio loop / bare:      ${ratio.toFixed(2)}×  (goal ≤ 1.20×) ${ratio <= 1.2 ? 'OK' : 'ABOVE GOAL'}   [middle half of rounds ${quantile(bareRatios, 0.25).toFixed(2)}–${quantile(bareRatios, 0.75).toFixed(2)}×; CPU time ${median(bareCpuRatios).toFixed(2)}×]`,
	);
	console.log(
		`  ratio loop / raw:       ${median(rawRatios).toFixed(2)}×  (reference only: raw parses nothing)`,
	);
	console.log(
		`  ratio loop / LangChain: ${langChainRatio.toFixed(2)}×  (goal ≤ 0.50×) ${langChainRatio <= 0.5 ? 'OK' : 'ABOVE GOAL'}   [middle half of rounds ${quantile(langChainRatios, 0.25).toFixed(2)}–${quantile(langChainRatios, 0.75).toFixed(2)}×]`,
	);
}

const contenderIndex = process.argv.indexOf('--contender');
if (contenderIndex >= 0) {
	const contender = process.argv[contenderIndex + 1] as Contender;
	process.once('message', (message: ToChild) => {
		if (message.type !== 'init') throw new Error(`expected init, got ${message.type}`);
		child(contender, (reply) => process.send?.(reply), message.bodies).catch((error: unknown) => {
			console.error(error);
			process.exit(1);
		});
	});
} else {
	main().catch((error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	});
}
