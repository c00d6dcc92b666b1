#!/usr/bin/env node
// @ts-check
/**
 * Cold start of the `toolbridge` command (the built package: run `npm run build` first), each
 * measurement a fresh process:
 *
 *   tools      process start → `toolbridge tools <workflow>` has printed and exited
 *   call       process start → `toolbridge call <workflow> Hash_text` has run the Crypto node
 *   mcp list   process start → the answer to MCP tools/list (initialize, then tools/list,
 *              written to stdin at once) over stdio
 *   LangChain  (when @n8n/n8n-nodes-langchain is installed) `tools` and `call Calculator` of
 *              fixtures/workflows/calculator-agent.json: n8n's Calculator and Think tool nodes
 *   run        (same condition) process start → `toolbridge run` of n8n's AI Agent has printed
 *              the answer of a loopback fake model, on the OpenRouter Chat Model (built-in
 *              client), the DeepSeek and the Ollama Chat Model (their own node code)
 *   mcp open   process start → the answer to the opening request over stdio: server/discover
 *              (MCP 2026-07-28) and initialize (2025), answered before n8n loads (target
 *              ≤ 400 ms on Node 20)
 *
 * Anchors measured in the same run: `node -e 0` (the runtime's own start), and — when the
 * e2e cache holds n8n 2.41.1 (npm run test:e2e installs it) — `n8n execute` of the same
 * Crypto call. With a Node that has module.enableCompileCache (>= 22.1; the e2e cache's
 * Node 24 is used when this one is older) the figures are repeated with a warm compile cache.
 *
 * Prints min / median of BENCH_CLI_RUNS (default 5) runs in ms, CPU (user+sys) when
 * /usr/bin/time exists, and ratios. A benchmark, not a test: nothing is asserted; the target
 * is ≤ 1000 ms for tools and mcp list on an idle CI machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { measureRunColdStarts } from './support/run-model-nodes.mjs';

const repo = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 5);
const bin = join(repo, 'packages/n8n-toolbridge/bin/toolbridge.js');
const workflow = join(repo, 'fixtures/workflows/crypto-agent.json');
/** A workflow with n8n's Calculator and Think (measured when @n8n/n8n-nodes-langchain is installed). */
const calculatorWorkflow = join(repo, 'fixtures/workflows/calculator-agent.json');
const langChainInstalled = existsSync(
	join(repo, 'node_modules/@n8n/n8n-nodes-langchain/package.json'),
);
const hasTime = existsSync('/usr/bin/time');

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** @param {number[]} values */
const min = (values) => Math.min(...values);

/**
 * Runs a command to its end; wall ms and CPU ms (user+sys, when /usr/bin/time exists).
 * @param {string} command @param {string[]} args @param {NodeJS.ProcessEnv} env
 */
function timeProcess(command, args, env) {
	const wrapped = hasTime
		? ['/usr/bin/time', ['-f', '__cpu %U %S', command, ...args]]
		: [command, args];
	const started = performance.now();
	const result = spawnSync(
		/** @type {string} */ (wrapped[0]),
		/** @type {string[]} */ (wrapped[1]),
		{ cwd: repo, env, encoding: 'utf8' },
	);
	const wall = performance.now() - started;
	if (result.status !== 0)
		throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stderr}`);
	const cpu = /__cpu ([\d.]+) ([\d.]+)/.exec(result.stderr ?? '');
	return { wall, cpu: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : Number.NaN };
}

/**
 * Process start → the answer with id `answerId` over stdio, `messages` written at once.
 * @param {string} node @param {NodeJS.ProcessEnv} env @param {object[]} messages @param {number} answerId
 * @returns {Promise<{ wall: number, cpu: number }>}
 */
function timeMcpAnswer(node, env, messages, answerId) {
	return new Promise((resolvePromise, reject) => {
		const started = performance.now();
		const child = spawn(node, [bin, 'mcp', workflow], { cwd: repo, env });
		let buffer = '';
		let stderr = '';
		child.stderr.on('data', (data) => (stderr += data));
		child.on('exit', (code) => code && reject(new Error(`mcp exited ${code}:\n${stderr}`)));
		child.stdout.on('data', (data) => {
			buffer += data;
			if (!buffer.includes(`"id":${answerId}`)) return;
			const wall = performance.now() - started;
			child.kill();
			resolvePromise({ wall, cpu: Number.NaN });
		});
		for (const message of messages) child.stdin.write(`${JSON.stringify(message)}\n`);
	});
}

const DISCOVER = {
	jsonrpc: '2.0',
	id: 1,
	method: 'server/discover',
	params: {
		_meta: {
			'io.modelcontextprotocol/protocolVersion': '2026-07-28',
			'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
			'io.modelcontextprotocol/clientCapabilities': {},
		},
	},
};
const INITIALIZE = {
	jsonrpc: '2.0',
	id: 1,
	method: 'initialize',
	params: {
		protocolVersion: '2025-06-18',
		capabilities: {},
		clientInfo: { name: 'bench', version: '1' },
	},
};
/** Process start → tools/list: initialize, initialized, tools/list, written at once. */
const MCP_LIST = [
	INITIALIZE,
	{ jsonrpc: '2.0', method: 'notifications/initialized' },
	{ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
];

/**
 * @param {string} label @param {() => Promise<{ wall: number, cpu: number }> | { wall: number, cpu: number }} measure
 */
async function series(label, measure) {
	await measure(); // one run first: disk cache (and the compile cache, when on) warm
	const runs = [];
	for (let run = 0; run < RUNS; run++) runs.push(await measure());
	const walls = runs.map((run) => run.wall);
	const cpus = runs.map((run) => run.cpu).filter((value) => !Number.isNaN(value));
	const row = {
		label,
		min: min(walls),
		median: median(walls),
		cpu: cpus.length ? median(cpus) : Number.NaN,
	};
	console.log(
		`${label.padEnd(46)} min ${row.min.toFixed(0).padStart(5)} ms  median ${row.median.toFixed(0).padStart(5)} ms${Number.isNaN(row.cpu) ? '' : `  cpu ${row.cpu.toFixed(0).padStart(5)} ms`}`,
	);
	return row;
}

/** The e2e cache's Node 24 and n8n, when installed. */
async function e2eInstall() {
	try {
		const { provisionPaths } = await import('../test/e2e/lib/provision.mjs');
		const paths = provisionPaths();
		if (
			existsSync(join(paths.root, 'ready.json')) &&
			existsSync(paths.nodeBin) &&
			existsSync(paths.n8nBin)
		)
			return paths;
	} catch {
		// no e2e libraries: no anchors from n8n
	}
	return undefined;
}

/** @param {string} node */
function supportsCompileCache(node) {
	const result = spawnSync(node, [
		'-e',
		"process.exit(typeof require('node:module').enableCompileCache === 'function' ? 0 : 1)",
	]);
	return result.status === 0;
}

async function main() {
	for (const built of ['dist/src/index.js', 'packages/n8n-toolbridge/dist/cli/main.js']) {
		if (!existsSync(join(repo, built)))
			throw new Error(`${built} is missing: run "npm run build" first`);
	}
	const install = await e2eInstall();
	const cacheDir = mkdtempSync(join(tmpdir(), 'toolbridge-compile-cache-'));
	const home = mkdtempSync(join(tmpdir(), 'toolbridge-bench-home-'));
	const baseEnv = { PATH: process.env.PATH ?? '', HOME: home };
	const runtimes = [{ node: process.execPath, version: process.version }];
	if (!supportsCompileCache(process.execPath) && install) {
		const version = spawnSync(install.nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim();
		runtimes.push({ node: install.nodeBin, version });
	}
	console.log(
		`toolbridge cold start, ${RUNS} runs each (+1 warm-up), workflow fixtures/workflows/crypto-agent.json`,
	);
	console.log(
		`load average ${readLoad()} on ${spawnSync('nproc', { encoding: 'utf8' }).stdout.trim() || '?'} cores\n`,
	);
	/** @type {Record<string, { min: number, median: number, cpu: number }>} */
	const rows = {};
	for (const { node, version } of runtimes) {
		const variants = supportsCompileCache(node)
			? [
					{
						name: `${version}, no compile cache`,
						env: { ...baseEnv, NODE_DISABLE_COMPILE_CACHE: '1' },
					},
					{ name: `${version}, compile cache`, env: { ...baseEnv, NODE_COMPILE_CACHE: cacheDir } },
				]
			: [{ name: `${version}`, env: baseEnv }];
		for (const variant of variants) {
			console.log(`— ${variant.name}`);
			rows[`${variant.name} node`] = await series('node -e 0 (anchor)', () =>
				timeProcess(node, ['-e', '0'], variant.env),
			);
			rows[`${variant.name} tools`] = await series('toolbridge tools', () =>
				timeProcess(node, [bin, 'tools', workflow], variant.env),
			);
			rows[`${variant.name} call`] = await series('toolbridge call Hash_text', () =>
				timeProcess(
					node,
					[bin, 'call', workflow, 'Hash_text', '--args', '{"text":"hello"}'],
					variant.env,
				),
			);
			rows[`${variant.name} discover`] = await series(
				'toolbridge mcp: start → server/discover answer',
				() => timeMcpAnswer(node, variant.env, [DISCOVER], 1),
			);
			rows[`${variant.name} initialize`] = await series(
				'toolbridge mcp: start → initialize answer',
				() => timeMcpAnswer(node, variant.env, [INITIALIZE], 1),
			);
			rows[`${variant.name} mcp`] = await series('toolbridge mcp: start → tools/list answer', () =>
				timeMcpAnswer(node, variant.env, MCP_LIST, 2),
			);
			if (langChainInstalled) {
				// n8n's LangChain tool nodes (the add-on): only the node files this workflow uses load.
				rows[`${variant.name} lc tools`] = await series('toolbridge tools (LangChain tools)', () =>
					timeProcess(node, [bin, 'tools', calculatorWorkflow], variant.env),
				);
				rows[`${variant.name} lc call`] = await series('toolbridge call Calculator', () =>
					timeProcess(
						node,
						[bin, 'call', calculatorWorkflow, 'Calculator', '--args', '{"input":"2+2*3"}'],
						variant.env,
					),
				);
			}
			const runs = langChainInstalled
				? await measureRunColdStarts({ repo, bin, node, env: variant.env, series })
				: undefined;
			const anchor = rows[`${variant.name} node`].median;
			const langChain = langChainInstalled
				? `, LangChain tools ${(rows[`${variant.name} lc tools`].median / anchor).toFixed(1)}×, call Calculator ${(rows[`${variant.name} lc call`].median / anchor).toFixed(1)}×`
				: '';
			if (runs)
				console.log(
					`  run on a model node's own code vs the built-in client (median): DeepSeek ${(runs.deepSeek.median / runs.openRouter.median).toFixed(2)}×, Ollama ${(runs.ollama.median / runs.openRouter.median).toFixed(2)}×`,
				);
			console.log(
				`  ratios to node -e 0 (median): tools ${(rows[`${variant.name} tools`].median / anchor).toFixed(1)}×, call ${(rows[`${variant.name} call`].median / anchor).toFixed(1)}×, mcp discover ${(rows[`${variant.name} discover`].median / anchor).toFixed(1)}×, mcp list ${(rows[`${variant.name} mcp`].median / anchor).toFixed(1)}×${langChain}\n`,
			);
		}
	}
	if (install) {
		const { N8nInstance } = await import('../test/e2e/lib/n8n-instance.mjs');
		const instance = new N8nInstance(install, { name: 'bench-cli' });
		const id = 'BenchCliCrypto01';
		await instance.importWorkflow({
			id,
			name: 'bench: crypto',
			active: false,
			versionId: 'a4c1e0f2-0b6e-4a55-9a3b-000000000001',
			settings: { executionOrder: 'v1' },
			connections: { Start: { main: [[{ node: 'Hash', type: 'main', index: 0 }]] } },
			nodes: [
				{
					id: 's',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'h',
					name: 'Hash',
					type: 'n8n-nodes-base.crypto',
					typeVersion: 2,
					position: [200, 0],
					parameters: { type: 'SHA256', value: 'hello', dataPropertyName: 'hash' },
				},
			],
		});
		const timeExecute = async () => {
			const started = performance.now();
			const run = await instance.execute(id);
			// n8n 2.41.1's CLI can crash on its way out (SIGSEGV) after a successful run: the run counts.
			if (!run.ok && run.result?.status !== 'success')
				throw new Error(`n8n execute failed (log ${run.logPath})`);
			return { wall: performance.now() - started, cpu: Number.NaN };
		};
		console.log('— n8n 2.41.1 (Node 24, e2e cache)');
		const execute = await series('n8n execute (Manual → Crypto SHA256)', timeExecute);
		const call =
			rows[`${process.version} call`] ??
			rows[Object.keys(rows).find((key) => key.endsWith(' call')) ?? ''];
		console.log(
			`  toolbridge call / n8n execute (median): ${(call.median / execute.median).toFixed(2)}×`,
		);
		rmSync(instance.folder, { recursive: true, force: true });
	} else {
		console.log('(no e2e n8n cache: run npm run test:e2e once for the n8n execute anchor)');
	}
	rmSync(cacheDir, { recursive: true, force: true });
	rmSync(home, { recursive: true, force: true });
}

function readLoad() {
	try {
		return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
	} catch {
		return '?';
	}
}

main().catch((error) => {
	console.error(`bench:cli failed: ${error.message}`);
	process.exitCode = 1;
});
