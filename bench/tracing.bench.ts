/**
 * What OpenTelemetry tracing costs an agent run, against the same run untraced, in one
 * process. The model is in-process (a prebuilt turn, no HTTP), so the loop itself is as cheap
 * as it gets and the tracing share is as large as it can be: a worst case. Each run makes
 * `--iterations` model calls with one trivial tool call each, then answers.
 *
 * - plain: runAgent, no tracing wrapper at all (the anchor);
 * - no SDK: the wrappers the hosts put around every run (`startAgentTrace`, its model and tool
 *   wrappers, `run`) while no OpenTelemetry SDK is registered — what every user without
 *   tracing pays;
 * - SDK: the same after registering `@opentelemetry/sdk-trace-node` with a BatchSpanProcessor
 *   whose exporter drops the spans (span creation, attributes, context switches, batching;
 *   no network): 1 + 2 × iterations + 1 spans per run.
 *
 * Each measurement is the CPU time of `--runs` runs; rounds alternate which contender goes
 * first (paired: drift on a busy machine hits both sides); a ratio is the median of the
 * per-round ratios with the middle half of the rounds. Printed, never asserted.
 * Goal: no SDK ≤ 1.02× plain (measured 1.01×); SDK: a few µs of CPU per span.
 *
 *   npm run bench:tracing [-- --iterations 20 --rounds 31 --runs 50]
 */
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { CallModel } from '../src/agent/call-model-step';
import { runAgent } from '../src/agent/run-agent';
import type { AssistantTurn } from '../src/chat/types';
import { startAgentTrace } from '../src/tracing/agent-trace';
import { argument, incrementTool } from './support/loop-fixtures';
import { ratioSummary } from './support/stats';

const iterations = argument('iterations', 20);
const rounds = argument('rounds', 31);
const runsPerMeasurement = argument('runs', 50);

const usage = { promptTokens: 12, completionTokens: 3, totalTokens: 15 };
const turn = (done: number): AssistantTurn =>
	done < iterations
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
				finishReason: 'tool-calls',
				rawFinishReason: 'tool_calls',
				usage,
				model: 'fake/model',
			}
		: {
				text: `Final: ${done}`,
				reasoning: '',
				reasoningDetails: [],
				toolCalls: [],
				finishReason: 'stop',
				rawFinishReason: 'stop',
				usage,
				model: 'fake/model',
			};
const callModel: CallModel = async (request) =>
	turn(request.messages.filter((message) => message.role === 'tool').length);

async function plainRun(): Promise<void> {
	await runAgent({
		input: { config: { model: 'fake/model', maxIterations: iterations + 2 }, prompt: 'count' },
		tools: [incrementTool],
		callModel,
	});
}

async function tracedRun(): Promise<void> {
	const trace = startAgentTrace({
		agentName: 'Bench',
		model: 'fake/model',
		baseUrl: 'http://127.0.0.1:9/v1',
	});
	try {
		const { result } = await trace.run(() =>
			runAgent({
				input: { config: { model: 'fake/model', maxIterations: iterations + 2 }, prompt: 'count' },
				tools: [trace.tool(incrementTool)],
				callModel: trace.callModel(callModel),
			}),
		);
		trace.end({ usage: result.usage });
	} catch (error) {
		trace.fail(error);
		throw error;
	}
}

/**
 * Mean CPU ms (user + system) of one run over `runsPerMeasurement` runs: on a shared machine
 * CPU time is disturbed far less than wall time by other processes (the runs never wait on I/O).
 */
async function measure(run: () => Promise<void>): Promise<number> {
	const started = process.cpuUsage();
	for (let index = 0; index < runsPerMeasurement; index++) await run();
	const used = process.cpuUsage(started);
	return (used.user + used.system) / 1000 / runsPerMeasurement;
}

/** Paired rounds of plain and traced; the per-round ratios traced / plain. */
async function compare(): Promise<{ ratios: number[]; plain: number[]; traced: number[] }> {
	for (let warm = 0; warm < 3; warm++) {
		await measure(plainRun);
		await measure(tracedRun);
	}
	const plain: number[] = [];
	const traced: number[] = [];
	const ratios: number[] = [];
	for (let round = 0; round < rounds; round++) {
		// Alternate which goes first, so neither always runs on a warmer (or busier) machine.
		let plainMs: number;
		let tracedMs: number;
		if (round % 2 === 0) {
			plainMs = await measure(plainRun);
			tracedMs = await measure(tracedRun);
		} else {
			tracedMs = await measure(tracedRun);
			plainMs = await measure(plainRun);
		}
		plain.push(plainMs);
		traced.push(tracedMs);
		ratios.push(tracedMs / plainMs);
	}
	return { ratios, plain, traced };
}

const mid = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1].toFixed(3);

async function main(): Promise<void> {
	console.log(
		`tracing.bench: ${iterations} model calls + ${iterations} tool calls per run, ${runsPerMeasurement} runs per measurement, ${rounds} rounds`,
	);
	const withoutSdk = await compare();
	console.log(
		`no SDK registered: plain ${mid(withoutSdk.plain)} CPU ms/run, traced ${mid(withoutSdk.traced)} CPU ms/run → ${ratioSummary(withoutSdk.ratios)}`,
	);
	let exported = 0;
	const provider = new NodeTracerProvider({
		spanProcessors: [
			new BatchSpanProcessor({
				export: (spans, done) => {
					exported += spans.length;
					done({ code: 0 });
				},
				shutdown: async () => {},
			}),
		],
	});
	provider.register();
	const withSdk = await compare();
	await provider.forceFlush();
	const spansPerRun = 2 + 2 * iterations;
	const perSpanUs =
		((Number(mid(withSdk.traced)) - Number(mid(withSdk.plain))) * 1000) / spansPerRun;
	console.log(
		`SDK registered (batched, exporter drops): plain ${mid(withSdk.plain)} CPU ms/run, traced ${mid(withSdk.traced)} CPU ms/run → ${ratioSummary(withSdk.ratios)}; ≈ ${perSpanUs.toFixed(1)} µs per span (${spansPerRun} a run, ${exported} exported)`,
	);
	await provider.shutdown();
}

void main();
