/**
 * Per-call overhead of a bridge tool over running the same node directly, both through the
 * same n8n-core path (StandaloneHost.runNode → WorkflowExecute.run on a one-node workflow).
 *
 *   anchor: host.runNode(Crypto node with the literal text)
 *   tool:   the path MCP's tools/call and the agent loop take — the AgentTool with the loop's
 *           tool time limit (withToolTimeout, 120 s), its observation through the output
 *           boundary (redact with the session's secrets, cap once): validate, substitute, run,
 *           one observation
 *   view:   the LangChain view of the same tool (`invoke`), for library users (reference)
 *
 * Interleaved rounds; prints medians (µs) and each contender's ratio to the anchor measured
 * in the same round (median and middle half). A benchmark, not a test: nothing is asserted.
 */
import { resolve } from 'node:path';
import type { INode } from 'n8n-workflow';
import { OutputBoundary } from '../src/agent/output-boundary';
import { withToolTimeout } from '../src/agent/time-limits/with-tool-timeout';
import { defaultRunTimeLimits } from '../src/agent/time-limits/default-time-limits';
import { loadWorkflowTools } from '../src/hosts/standalone/load-workflow-tools';
import { createSessionRedactor } from '../src/hosts/standalone/session/workflow-session';
import { median, ratioSummary } from './support/stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2000);
const WARMUP = 200;

async function time(run: () => Promise<unknown>): Promise<number> {
	const start = process.hrtime.bigint();
	await run();
	return Number(process.hrtime.bigint() - start) / 1000;
}

async function main(): Promise<void> {
	const loaded = await loadWorkflowTools(
		resolve(__dirname, '../fixtures/workflows/text-tools.json'),
		{
			packageDirs: [resolve(__dirname, '../fixtures/packages/n8n-nodes-toolbridge-fixture')],
			env: {},
		},
	);
	const tool = loaded.tools.find((candidate) => candidate.name === 'Hash_text')!;
	const view = loaded.langChainTools.find((candidate) => candidate.name === 'Hash_text')!;
	const toolNode = loaded.workflow.nodes.find((node) => node.name === 'Hash text')!;
	const directNode: INode = {
		...toolNode,
		parameters: { ...toolNode.parameters, value: 'bench text' },
	};
	const limited = withToolTimeout(tool, defaultRunTimeLimits.toolTimeoutMs);
	const boundary = new OutputBoundary({
		redactor: createSessionRedactor(loaded.workflow, loaded.host, {
			apiKey: 'sk-or-v1-bench-key-0123456789abcdef',
			env: {},
		}),
	});
	const direct = () => loaded.host.runNode(loaded.workflow, directNode, {});
	const viaTool = async () =>
		boundary.observation(await limited.invoke({ text: 'bench text' }, { toolCallId: 'bench' }));
	const viaView = () => view.invoke({ text: 'bench text' });

	const [directResult, toolResult, viewResult] = await Promise.all([
		direct(),
		viaTool(),
		viaView(),
	]);
	const expected = JSON.stringify(directResult.items.map((item) => item.json));
	if (toolResult.content !== expected || viewResult !== expected)
		throw new Error('direct and tool results differ');

	for (let round = 0; round < WARMUP; round++) {
		await direct();
		await viaTool();
		await viaView();
	}
	const times = { direct: [] as number[], tool: [] as number[], view: [] as number[] };
	const ratios = { tool: [] as number[], view: [] as number[] };
	// Interleaved, so drift (GC, JIT, the shared CPU) hits all sides alike.
	for (let round = 0; round < ROUNDS; round++) {
		const anchor = await time(direct);
		const toolTime = await time(viaTool);
		const viewTime = await time(viaView);
		times.direct.push(anchor);
		times.tool.push(toolTime);
		times.view.push(viewTime);
		ratios.tool.push(toolTime / anchor);
		ratios.view.push(viewTime / anchor);
	}
	const directMedian = median(times.direct);
	console.log(
		`call.bench — Crypto SHA-256 through n8n-core WorkflowExecute, ${ROUNDS} interleaved rounds (median)`,
	);
	console.log(`  anchor: direct node run                 ${directMedian.toFixed(1)} µs`);
	for (const [label, key] of [
		['tool call as MCP and the loop make it', 'tool'],
		['LangChain view (invoke), reference   ', 'view'],
	] as const) {
		const toolMedian = median(times[key]);
		console.log(
			`  ${label}   ${toolMedian.toFixed(1)} µs  +${(toolMedian - directMedian).toFixed(1)} µs  ratio ${ratioSummary(ratios[key])}`,
		);
	}
}

void main();
