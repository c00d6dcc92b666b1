/**
 * The orchestrator's loop with a connected chat model against the loop with its built-in
 * client (the anchor), on one loopback fake Chat Completions server with zero latency, in one
 * run: the same agent (runAgent), the same trivial tool, the same number of iterations; only
 * the model call differs.
 *
 * - built-in: the package's own streaming client (createChatModelCaller);
 * - langchain: a connected LangChain chat model — ChatOpenAI (Chat Completions, streaming),
 *   what n8n's OpenAI Chat Model sub-node hands its consumer — through createLangChainModelCaller
 *   (messages mapped to LangChain and back, tools bound per call);
 * - sub-node (LangChain round trip): the Toolbridge Chat Model behind n8n's real
 *   `@n8n/ai-node-sdk` adapter (`supplyModel`), called as any LangChain model;
 * - sub-node (native): the orchestrator's native path for that sub-node: the built-in client
 *   with the sub-node's settings, each call written to the sub-node's run log (as in n8n).
 *
 * Rounds interleave the contenders (a different one first each round); each ratio is the
 * median of the per-round ratios to the built-in client's time, with the middle half, for
 * wall and CPU time. Timings are printed, never asserted.
 *
 *   npm run bench:connected [-- --iterations 20 --rounds 15]
 */
import { performance } from 'node:perf_hooks';
import type { CallModel } from '../src/agent/call-model-step';
import { createChatModelCaller } from '../src/agent/create-chat-model-caller';
import { runAgent } from '../src/agent/run-agent';
import {
	createLangChainModelCaller,
	type LangChainChatModelLike,
} from '../src/langchain/langchain-model-caller';
import { startFakeChatServer, textReply, toolCallReply } from '../test/support/fake-chat-server';
import { median, ratioSummary } from './support/stats';
import { subNodeContenders } from './support/sub-node-contenders';
import { argument, incrementTool, OfflineChatOpenAI } from './support/loop-fixtures';

const iterations = argument('iterations', 20);
const rounds = argument('rounds', 15);

async function main(): Promise<void> {
	const server = await startFakeChatServer({
		respond: ({ body }) => {
			const done = (body.messages as Array<{ role: string }>).filter(
				(message) => message.role === 'tool',
			).length;
			return done < iterations
				? toolCallReply([{ id: `call_${done}`, name: 'increment', arguments: { n: done } }], {
						id: `gen-${done}`,
					})
				: textReply(`Final: ${done}`, { id: 'gen-final' });
		},
	});
	const connection = { baseUrl: server.baseUrl, retry: { maxRetries: 0 } };
	const contenders: Array<{ name: string; callModel: CallModel }> = [
		{ name: 'built-in client (anchor)', callModel: createChatModelCaller(connection) },
		{
			name: 'connected LangChain model (ChatOpenAI)',
			callModel: createLangChainModelCaller(
				new OfflineChatOpenAI({
					model: 'bench/model',
					apiKey: 'sk-bench',
					configuration: { baseURL: server.baseUrl },
					maxRetries: 0,
					streamUsage: true,
				}) as unknown as LangChainChatModelLike,
			),
		},
		...(await subNodeContenders(connection)),
	];

	const runOnce = async (callModel: CallModel): Promise<{ wall: number; cpu: number }> => {
		const cpuBefore = process.cpuUsage();
		const started = performance.now();
		const { result } = await runAgent({
			input: {
				config: { model: 'bench/model', maxIterations: iterations + 1, repeatedCallLimit: 1_000 },
				prompt: 'count',
			},
			tools: [incrementTool],
			callModel,
		});
		const wall = performance.now() - started;
		const cpu = process.cpuUsage(cpuBefore);
		if (result.output !== `Final: ${iterations}`)
			throw new Error(`unexpected output ${result.output}`);
		return { wall, cpu: (cpu.user + cpu.system) / 1000 };
	};

	for (const contender of contenders)
		for (let warm = 0; warm < 3; warm++) await runOnce(contender.callModel);
	const times = contenders.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
	for (let round = 0; round < rounds; round++) {
		for (let offset = 0; offset < contenders.length; offset++) {
			const index = (round + offset) % contenders.length;
			const measured = await runOnce(contenders[index].callModel);
			times[index].wall.push(measured.wall);
			times[index].cpu.push(measured.cpu);
		}
	}
	await server.close();

	console.log(
		`Connected chat models vs the built-in client: runAgent, ${iterations} tool iterations + 1 answer per run, ${rounds} interleaved rounds, loopback fake (Node ${process.version}).`,
	);
	for (const [index, contender] of contenders.entries()) {
		const wallRatios = times[index].wall.map((wall, round) => wall / times[0].wall[round]);
		const cpuRatios = times[index].cpu.map((cpu, round) => cpu / times[0].cpu[round]);
		const perCall = median(times[index].wall) / (iterations + 1);
		console.log(
			`  ${contender.name.padEnd(48)} ${median(times[index].wall).toFixed(1).padStart(7)} ms/run  ${perCall.toFixed(2).padStart(6)} ms/call  wall ${ratioSummary(wallRatios)}  cpu ${ratioSummary(cpuRatios)}`,
		);
	}
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
