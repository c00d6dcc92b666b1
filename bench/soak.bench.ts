/**
 * Soak benchmark (npm run bench:soak): does memory grow with the number of runs?
 *
 * One run is the whole product path: `runWorkflowAgent` on fixtures/workflows/crypto-agent.json
 * (an Agent Orchestrator with the real n8n-nodes-base Crypto tool, run through n8n-core in the
 * standalone host) against a loopback fake model that answers with one `Hash_text` call,
 * then with a text quoting the tool's result; every answer is checked against the SHA-256.
 *
 * Four scenarios, each in its own fresh process (so no scenario's garbage taxes another's):
 * sequential runs and batches of 50 concurrent runs, each run with its own StandaloneHost
 * (what `runWorkflowAgent` creates when given no `host`; the bench creates it the same way
 * and passes it in, to watch it) or all runs with one shared host. Every 100 runs it prints:
 * - heap after GC: one `gc()` right after the batch, while keep-alive sockets and timers of
 *   the runs are still open, as a busy process holds it;
 * - settled heap: with the idle keep-alive connections closed, after rounds of `gc()` until
 *   nothing more is freed (fetch's web streams and their finalizers let go a layer per
 *   round): the floor, which repeats within ~0.3 MB;
 * - RSS, and (own hosts) how many hosts of finished runs are still reachable after GC.
 *
 * Verdict, per scenario: PASS when (1) the settled heap grows by at most `--bound` KB per run
 * after run `--warm-up` (Theil–Sen slope: the median of the slopes between every two samples,
 * so one sample caught mid-release does not decide), and (2) no host of a finished run is
 * still reachable after GC.
 *
 * What grew before (`beforeFix`, printed beside this run's figures): Node keeps the
 * AsyncLocalStorage store of every async resource made during a run (a pooled keep-alive
 * socket, a timer, a response body's promises) for that resource's life, and the agent
 * frame's store held the run's session — workflow, tools, its StandaloneHost with the loaded
 * package index (~0.3 MB). And the chat client left each finished response body unread for
 * its 5 s grace period, so every response of the last 5 s stayed in memory with the run it
 * pinned: ~100 hosts at 50 concurrent runs, heap after GC 86–106 MB instead of ~55.
 *
 *   npm run bench:soak [-- --runs 1000 --warm-up 300 --bound 2 --jobs 2 --only concurrent --snapshots DIR]
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { AgentOrchestrator } from '../nodes/AgentOrchestrator/AgentOrchestrator.node';
import { orchestratorNodeType, runWorkflowAgent } from '../src/hosts/standalone/run-workflow-agent';

/** The orchestrator's class, passed in as the CLI does. */
const ownNodeTypes = { [orchestratorNodeType]: () => new AgentOrchestrator() };
import { StandaloneHost } from '../src/hosts/standalone/standalone-host';
import { startFakeChatServer, textReply, toolCallReply } from '../test/support/fake-chat-server';

function option(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? process.argv[index + 1] : undefined;
}
function numberOption(name: string, fallback: number): number {
	const value = option(name);
	return value === undefined ? fallback : Number(value);
}

const runs = numberOption('runs', 1_000);
const sampleEvery = 100;
const warmUp = numberOption('warm-up', 300);
/** KB of settled heap per run after warm-up. */
const boundKb = numberOption('bound', 2);
const jobs = numberOption('jobs', 2);

interface Scenario {
	name: string;
	concurrency: number;
	sharedHost: boolean;
}

const scenarios: Scenario[] = [
	{ name: 'sequential, own host per run', concurrency: 1, sharedHost: false },
	{ name: 'sequential, shared host', concurrency: 1, sharedHost: true },
	{ name: '50 concurrent, own host per run', concurrency: 50, sharedHost: false },
	{ name: '50 concurrent, shared host', concurrency: 50, sharedHost: true },
];

interface Sample {
	runs: number;
	/** MB after one `gc()` right after the batch. */
	heapMb: number;
	/** MB after `gc()` rounds until nothing more is freed. */
	settledMb: number;
	rssMb: number;
	/** Hosts of finished runs still reachable after `gc()` (own-host scenarios). */
	liveHosts: number;
}

/**
 * What this bench printed on the code before the two fixes (agent frame, released response
 * bodies), on Node 20 with 2 busy cores; one figure per 100 runs.
 */
const beforeFix: Record<string, Partial<Record<keyof Sample, number[]>>> = {
	'sequential, own host per run': {
		heapMb: [69.3, 71.6, 72.8, 68.9, 68.5, 86.7, 77.6, 86.9, 75.8, 75.9],
		settledMb: [53.1, 53.6, 54.1, 53.9, 54.1, 53.9, 54.2, 54.4, 54.4, 54.5],
		rssMb: [171.5, 175.2, 179.2, 179.1, 178.4, 174.6, 181.0, 179.3, 180.7, 180.4],
		liveHosts: [1, 2, 2, 2, 2, 28, 2, 101, 20, 2],
	},
	'sequential, shared host': {
		heapMb: [60.4, 60.9, 61.2, 61.3, 60.1, 61.6, 60.3, 61.7, 61.8, 61.8],
		settledMb: [53.1, 53.3, 53.5, 53.6, 53.8, 53.9, 54.1, 54.1, 61.8, 54.2],
		rssMb: [177.9, 180.0, 180.3, 180.1, 181.4, 181.1, 181.1, 181.3, 185.5, 183.0],
	},
	'50 concurrent, own host per run': {
		heapMb: [86.7, 86.6, 85.3, 87.9, 88.2, 88.3, 88.3, 88.3, 105.7, 88.7],
		settledMb: [70.5, 54.2, 54.4, 54.5, 54.7, 54.7, 54.8, 88.0, 88.4, 72.1],
		rssMb: [197.1, 182.5, 182.9, 183.7, 183.9, 184.0, 184.9, 218.5, 228.3, 208.3],
		liveHosts: [100, 101, 101, 101, 101, 101, 101, 101, 102, 102],
	},
	'50 concurrent, shared host': {
		heapMb: [61.5, 66.1, 62.7, 62.4, 62.6, 62.9, 62.8, 71.0, 63.2, 71.1],
		settledMb: [61.4, 61.8, 54.1, 54.1, 62.2, 54.3, 62.4, 62.5, 62.7, 62.8],
		rssMb: [180.5, 185.7, 181.0, 180.5, 184.9, 183.6, 187.1, 192.3, 189.1, 192.5],
	},
};

type FromChild =
	{ type: 'sample'; sample: Sample } | { type: 'done'; milliseconds: number } | { type: 'flush' };

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function collect(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('run with node --expose-gc');
	gc();
}

/**
 * The count `alive()` reads once finalizers of what a collection freed have run: rounds of
 * `gc()` and a 10 ms pause until three rounds in a row change nothing. Short enough that
 * keep-alive sockets (4–5 s idle) are still open.
 */
async function finishedHostsStillAlive(alive: () => number): Promise<number> {
	let count = alive();
	for (let round = 0, quiet = 0; round < 20 && quiet < 3; round++) {
		collect();
		await new Promise((resolve) => setTimeout(resolve, 10));
		quiet = alive() === count ? quiet + 1 : 0;
		count = alive();
	}
	return count;
}

/** Heap used after rounds of `gc()` and a 10 ms pause, once five rounds in a row free nothing more. */
async function settledHeapUsed(): Promise<number> {
	let lowest = Infinity;
	for (let round = 0, quiet = 0; round < 80 && quiet < 5; round++) {
		collect();
		await new Promise((resolve) => setTimeout(resolve, 10));
		const used = process.memoryUsage().heapUsed;
		quiet = used < lowest - 32 * 1024 ? 0 : quiet + 1;
		lowest = Math.min(lowest, used);
	}
	return lowest;
}

async function child(scenario: Scenario, send: (message: FromChild) => void): Promise<void> {
	const workflow = JSON.parse(
		readFileSync(join(__dirname, '../fixtures/workflows/crypto-agent.json'), 'utf8'),
	) as object;
	const server = await startFakeChatServer({
		respond: ({ body }) => {
			const messages = body.messages as Array<{ role: string; content: string }>;
			const toolResult = messages.find((message) => message.role === 'tool');
			if (toolResult) return textReply(`The tool said: ${toolResult.content}`);
			const text =
				[...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
			return toolCallReply([{ id: 'call_hash', name: 'Hash_text', arguments: { text } }]);
		},
	});
	const options = {
		baseUrl: server.baseUrl,
		apiKey: 'sk-soak-bench',
		env: {},
		nodeTypes: ownNodeTypes,
	};
	const sharedHost = scenario.sharedHost ? await StandaloneHost.create(options) : undefined;
	// Counted with finalizers, not WeakRefs: a WeakRef keeps its target alive until Node clears
	// V8's kept objects, which can be after the next collection.
	let finishedHostsAlive = 0;
	const hostCollected = new FinalizationRegistry<undefined>(() => finishedHostsAlive--);
	const snapshots = option('snapshots');

	const runOne = async (index: number): Promise<void> => {
		const text = `soak ${index}`;
		// Without a shared host: exactly what runWorkflowAgent does given no `host`.
		const host = sharedHost ?? (await StandaloneHost.create(options));
		const run = await runWorkflowAgent(workflow, { ...options, host, prompt: text });
		const expected = `The tool said: ${JSON.stringify([{ hash: sha256(text) }])}`;
		if (run.mode !== 'full' || run.result.output !== expected)
			throw new Error(
				`run ${index}: unexpected output ${JSON.stringify(run.mode === 'full' ? run.result.output : run)}`,
			);
		if (!sharedHost) {
			finishedHostsAlive++;
			hostCollected.register(host, undefined);
		}
	};

	const started = performance.now();
	for (let done = 0; done < runs;) {
		const batch = Math.min(scenario.concurrency, runs - done);
		await Promise.all(Array.from({ length: batch }, (_, offset) => runOne(done + offset)));
		done += batch;
		// The fake keeps every request it saw; the bench measures the client, not the fake.
		server.requests.length = 0;
		if (done % sampleEvery === 0) {
			await new Promise((resolve) => setImmediate(resolve));
			collect();
			const heapUsed = process.memoryUsage().heapUsed;
			const liveHosts = await finishedHostsStillAlive(() => finishedHostsAlive);
			// The pool's keep-alive sockets (~60 KB a pair) close by themselves after 4–5 s idle;
			// closed now, the settled heap does not depend on whether a sample took that long.
			server.closeIdleConnections();
			await new Promise((resolve) => setTimeout(resolve, 50));
			const settled = await settledHeapUsed();
			send({
				type: 'sample',
				sample: {
					runs: done,
					heapMb: heapUsed / 2 ** 20,
					settledMb: settled / 2 ** 20,
					rssMb: process.memoryUsage().rss / 2 ** 20,
					liveHosts,
				},
			});
			if (snapshots && (done === warmUp || done === runs))
				writeHeapSnapshot(
					join(snapshots, `${scenario.name.replace(/\W+/g, '-')}-${done}.heapsnapshot`),
				);
		}
	}
	const milliseconds = performance.now() - started;
	await server.close();
	send({ type: 'done', milliseconds });
}

/** Theil–Sen slope of settled heap over runs (MB per run) of the samples from `warmUp` on. */
function growthAfterWarmUp(samples: Sample[]): number {
	const points = samples.filter((sample) => sample.runs >= warmUp);
	const slopes: number[] = [];
	for (let left = 0; left < points.length; left++) {
		for (let right = left + 1; right < points.length; right++)
			slopes.push(
				(points[right].settledMb - points[left].settledMb) /
					(points[right].runs - points[left].runs),
			);
	}
	if (slopes.length === 0) return Number.NaN;
	slopes.sort((a, b) => a - b);
	const middle = Math.floor(slopes.length / 2);
	return slopes.length % 2 === 1 ? slopes[middle] : (slopes[middle - 1] + slopes[middle]) / 2;
}

interface Outcome {
	scenario: Scenario;
	samples: Sample[];
	milliseconds: number;
}

function runScenario(scenario: Scenario): Promise<Outcome> {
	const execArgv = process.execArgv.includes('--expose-gc')
		? process.execArgv
		: [...process.execArgv, '--expose-gc'];
	const childProcess: ChildProcess = fork(
		process.argv[1],
		[...process.argv.slice(2), '--scenario', scenario.name],
		{ execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
	);
	const samples: Sample[] = [];
	return new Promise((resolve, reject) => {
		let milliseconds = Number.NaN;
		childProcess.on('message', (message: FromChild) => {
			if (message.type === 'sample') {
				const { runs: done, heapMb, settledMb, rssMb, liveHosts } = message.sample;
				samples.push(message.sample);
				process.stdout.write(
					`  ${scenario.name}: ${done} runs, heap ${heapMb.toFixed(1)} MB (settled ${settledMb.toFixed(1)}), RSS ${rssMb.toFixed(1)} MB${scenario.sharedHost ? '' : `, ${liveHosts} hosts of finished runs reachable`}\n`,
				);
			} else if (message.type === 'done') milliseconds = message.milliseconds;
		});
		childProcess.once('exit', (code) =>
			code === 0
				? resolve({ scenario, samples, milliseconds })
				: reject(new Error(`${scenario.name}: child exited with ${code}`)),
		);
	});
}

function row(label: string, values: number[], digits = 1): string {
	return `${label.padEnd(26)}${values.map((value) => value.toFixed(digits).padStart(7)).join('')}`;
}

async function main(): Promise<void> {
	const only = option('only');
	const selected = scenarios.filter((scenario) => !only || scenario.name.includes(only));
	process.stdout.write(
		`soak: ${runs} runs per scenario (crypto-agent.json, real Crypto tool, loopback fake model); figures every ${sampleEvery} runs; ${jobs} scenarios at a time\n`,
	);
	const outcomes: Outcome[] = [];
	const queue = [...selected];
	await Promise.all(
		Array.from({ length: Math.max(1, jobs) }, async () => {
			for (let scenario = queue.shift(); scenario; scenario = queue.shift())
				outcomes.push(await runScenario(scenario));
		}),
	);

	let failed = false;
	process.stdout.write(
		`\n${'runs'.padEnd(26)}${Array.from({ length: Math.floor(runs / sampleEvery) }, (_, index) => String((index + 1) * sampleEvery).padStart(7)).join('')}\n`,
	);
	for (const scenario of selected) {
		const { samples, milliseconds } = outcomes.find(
			(candidate) => candidate.scenario === scenario,
		) as Outcome;
		const growthKb = growthAfterWarmUp(samples) * 1024;
		const liveHosts = Math.max(0, ...samples.map((sample) => sample.liveHosts));
		const pass = growthKb <= boundKb && liveHosts === 0;
		failed ||= !pass;
		process.stdout.write(`\n${scenario.name} (${(milliseconds / runs).toFixed(1)} ms per run)\n`);
		const before = beforeFix[scenario.name];
		const rows: Array<[string, keyof Sample, number]> = [
			['heap after GC, MB', 'heapMb', 1],
			['settled heap, MB', 'settledMb', 1],
			['RSS, MB', 'rssMb', 1],
			...(scenario.sharedHost
				? []
				: [["finished runs' hosts alive", 'liveHosts', 0] as [string, keyof Sample, number]]),
		];
		for (const [label, key, digits] of rows) {
			process.stdout.write(
				`${row(
					label,
					samples.map((sample) => sample[key]),
					digits,
				)}\n`,
			);
			const earlier = before?.[key];
			if (earlier) process.stdout.write(`${row('  before the fixes', earlier, digits)}\n`);
		}
		process.stdout.write(
			`settled heap growth after run ${warmUp}: ${growthKb.toFixed(2)} KB per run (bound ${boundKb} KB); hosts of finished runs reachable after GC: at most ${liveHosts} (bound 0) → ${pass ? 'PASS' : 'FAIL'}\n`,
		);
	}
	process.stdout.write(
		`\n${failed ? 'FAIL' : 'PASS'}: ${failed ? 'a scenario exceeds' : 'every scenario within'} ${boundKb} KB of settled heap per run after warm-up, and no finished run's host kept\n`,
	);
	process.exitCode = failed ? 1 : 0;
}

const scenarioName = option('scenario');
if (scenarioName !== undefined) {
	const scenario = scenarios.find((candidate) => candidate.name === scenarioName);
	if (!scenario) throw new Error(`unknown scenario ${scenarioName}`);
	child(scenario, (message) => process.send?.(message)).then(
		// Exits once the last message is out, whatever handles n8n-core left open.
		() => process.send?.({ type: 'flush' }, () => process.exit(0)),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
} else {
	main().catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
}
