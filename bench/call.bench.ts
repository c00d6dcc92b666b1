/**
 * Per-call overhead of a bridge tool over running the same node directly, both through the
 * same n8n-core path (StandaloneHost.runNode → WorkflowExecute.run on a one-node workflow).
 *
 *   direct: host.runNode(Crypto node with the literal text)
 *   tool:   DynamicStructuredTool.invoke({ text }) → validate, substitute, run, format
 *
 * Prints medians (µs) and the ratio. A benchmark, not a test: nothing is asserted.
 */
import { resolve } from 'node:path';
import type { INode } from 'n8n-workflow';
import { loadWorkflowTools } from '../src/hosts/standalone/load-workflow-tools';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2000);
const WARMUP = 200;

function median(values: number[]): number {
	const sorted = [...values].sort((left, right) => left - right);
	return sorted[Math.floor(sorted.length / 2)];
}

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
	const tool = loaded.langChainTools.find((candidate) => candidate.name === 'Hash_text')!;
	const toolNode = loaded.workflow.nodes.find((node) => node.name === 'Hash text')!;
	const directNode: INode = {
		...toolNode,
		parameters: { ...toolNode.parameters, value: 'bench text' },
	};
	const direct = () => loaded.host.runNode(loaded.workflow, directNode, {});
	const viaTool = () => tool.invoke({ text: 'bench text' });

	const [directResult, toolResult] = await Promise.all([direct(), viaTool()]);
	if (JSON.stringify(directResult.items.map((item) => item.json)) !== toolResult)
		throw new Error('direct and tool results differ');

	for (let round = 0; round < WARMUP; round++) {
		await direct();
		await viaTool();
	}
	const directTimes: number[] = [];
	const toolTimes: number[] = [];
	// Interleaved, so drift (GC, JIT, the shared CPU) hits both sides alike.
	for (let round = 0; round < ROUNDS; round++) {
		directTimes.push(await time(direct));
		toolTimes.push(await time(viaTool));
	}
	const directMedian = median(directTimes);
	const toolMedian = median(toolTimes);
	console.log(
		`call.bench — Crypto SHA-256 through n8n-core WorkflowExecute, ${ROUNDS} rounds each (median)`,
	);
	console.log(`  direct node run     ${directMedian.toFixed(1)} µs`);
	console.log(`  tool.invoke (func)  ${toolMedian.toFixed(1)} µs`);
	console.log(
		`  overhead            ${(toolMedian - directMedian).toFixed(1)} µs per call, ratio ${(toolMedian / directMedian).toFixed(2)}×`,
	);
}

void main();
