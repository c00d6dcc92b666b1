/**
 * Per-call overhead of a bridge tool over running the same node directly, both through the
 * same n8n-core path (StandaloneHost.runNode → WorkflowExecute.run on a one-node workflow).
 *
 *   anchor: host.runNode(Crypto node with the literal text)
 *   tool:   the tool exactly as MCP's tools/call and `toolbridge call` get it — a tool of
 *           `openWorkflowSession().tools`: the AgentTool with the 120 s time limit, its
 *           observation through the session's output boundary (its secrets redacted, capped
 *           once) — called with a long-lived caller signal, as the loop's run signal or a
 *           server's: validate, substitute, run, one observation
 *   view:   the LangChain view of the same tool (`invoke`), for library users (reference)
 *
 * Each round runs a batch of BATCH calls of the anchor and of every contender, in an order
 * shuffled per round (seeded, so runs repeat): a fixed order, even rotated, puts each side
 * after the same other side, which then leaves it the same garbage to collect. A batch is 500
 * calls (~80 ms) so that every batch holds several young-generation collections (each a few ms
 * here): with 100-call batches one collection more or less swung a round's ratio from 0.75 to
 * 1.7. Each batch is timed in wall time and in this process's CPU time (which other
 * processes' load does not inflate). Prints per-call medians and each contender's ratio to the
 * anchor of the same round (median and middle half), CPU first. A benchmark, not a test:
 * nothing is asserted.
 *
 * It measures the built package (`dist/`, what n8n and the CLI run; `npm run build` first), not
 * `src/` through tsx: tsx compiles with esbuild's keepNames, which adds a `__name(fn, …)` call
 * for every function created at run time — a cost only our side of the comparison paid (n8n's
 * code comes compiled), 0.05–0.1× of the ratio.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { INode } from 'n8n-workflow';
import { median, ratioSummary } from './support/stats';

const built = resolve(__dirname, '../dist/src/index.js');
if (!existsSync(built)) {
	console.error('bench:call measures the built package: run npm run build first.');
	process.exit(2);
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled code, not tsx's
const toolbridge = require(built) as typeof import('../src/index');
const { loadWorkflowTools, openWorkflowSession } = toolbridge;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const BATCH = 500;
const WARMUP = 200;

/** A seeded shuffle (a linear congruential generator: the same orders in every run). */
function shuffler(seed: number): <T>(items: T[]) => T[] {
	let state = seed;
	const next = () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
	return (items) => {
		for (let index = items.length - 1; index > 0; index--) {
			const other = Math.floor(next() * (index + 1));
			[items[index], items[other]] = [items[other], items[index]];
		}
		return items;
	};
}

/** Per-call µs of a batch: wall and this process's CPU (user + system). */
async function time(run: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
	const cpu = process.cpuUsage();
	const start = process.hrtime.bigint();
	for (let call = 0; call < BATCH; call++) await run();
	const wall = Number(process.hrtime.bigint() - start) / 1000 / BATCH;
	const used = process.cpuUsage(cpu);
	return { wall, cpu: (used.user + used.system) / BATCH };
}

async function main(): Promise<void> {
	const workflowFile = resolve(__dirname, '../fixtures/workflows/text-tools.json');
	const packageDirs = [resolve(__dirname, '../fixtures/packages/n8n-nodes-toolbridge-fixture')];
	const session = await openWorkflowSession(workflowFile, {
		packageDirs,
		env: {},
		apiKey: 'sk-or-v1-bench-key-0123456789abcdef',
	});
	const tool = session.findTool('Hash_text')!;
	const loaded = await loadWorkflowTools(workflowFile, {
		packageDirs,
		env: {},
		host: session.host,
	});
	const view = loaded.langChainTools.find((candidate) => candidate.name === 'Hash_text')!;
	const toolNode = session.workflow.nodes.find((node) => node.name === 'Hash text')!;
	const directNode: INode = {
		...toolNode,
		parameters: { ...toolNode.parameters, value: 'bench text' },
	};
	const caller = new AbortController();
	const direct = () => session.host.runNode(session.workflow, directNode, {});
	const viaTool = () =>
		tool.invoke({ text: 'bench text' }, { toolCallId: 'bench', signal: caller.signal });
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
	const contenders = { anchor: direct, tool: viaTool, view: viaView };
	type Side = keyof typeof contenders;
	const sides = Object.keys(contenders) as Side[];
	const wall: Record<Side, number[]> = { anchor: [], tool: [], view: [] };
	const cpu: Record<Side, number[]> = { anchor: [], tool: [], view: [] };
	const ratios = {
		wall: { tool: [] as number[], view: [] as number[] },
		cpu: { tool: [] as number[], view: [] as number[] },
	};
	const shuffle = shuffler(20261126);
	for (let round = 0; round < ROUNDS; round++) {
		const measured = {} as Record<Side, { wall: number; cpu: number }>;
		for (const side of shuffle([...sides])) measured[side] = await time(contenders[side]);
		for (const side of sides) {
			wall[side].push(measured[side].wall);
			cpu[side].push(measured[side].cpu);
		}
		for (const side of ['tool', 'view'] as const) {
			ratios.wall[side].push(measured[side].wall / measured.anchor.wall);
			ratios.cpu[side].push(measured[side].cpu / measured.anchor.cpu);
		}
	}
	console.log(
		`call.bench — Crypto SHA-256 through n8n-core WorkflowExecute, ${ROUNDS} rounds × ${BATCH} calls per side (per-call medians; ratio to the anchor of the same round)`,
	);
	console.log(
		`  anchor: direct node run                 cpu ${median(cpu.anchor).toFixed(1)} µs  wall ${median(wall.anchor).toFixed(1)} µs`,
	);
	for (const [label, side] of [
		['tool call as MCP and the loop make it', 'tool'],
		['LangChain view (invoke), reference   ', 'view'],
	] as const) {
		console.log(
			`  ${label}   cpu ${median(cpu[side]).toFixed(1)} µs ${ratioSummary(ratios.cpu[side])}  wall ${median(wall[side]).toFixed(1)} µs ${ratioSummary(ratios.wall[side])}`,
		);
	}
}

void main();
