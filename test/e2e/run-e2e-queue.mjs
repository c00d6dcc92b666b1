#!/usr/bin/env node
// @ts-check
/**
 * `npm run test:e2e:queue`: the package on n8n's distributed engine (queue mode).
 *
 * 1. provision Node 24 + n8n (the cache of lib/provision.mjs), Postgres and Redis (apt-get when
 *    missing; lib/system-packages.mjs)
 * 2. build and `npm pack` this repo once
 * 3. start one topology for the run: throw-away Postgres + Redis on loopback, n8n main
 *    (EXECUTIONS_MODE=queue) and two `n8n worker` processes (lib/queue-topology.mjs)
 * 4. run the scenario table (queue/index.mjs); a scenario that killed a worker gets it restarted
 *    before the next one
 * 5. print one `PASS|FAIL|PENDING <id> — <title>` line per scenario, the state-size figures, and
 *    `N passed, N failed`; exit 1 on any failure
 *
 * Options: --only=<regex> (scenario ids), --no-build, --keep (keep folders and logs; also
 * TOOLBRIDGE_E2E_KEEP=1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { RunContext } from './lib/context.mjs';
import { provision } from './lib/provision.mjs';
import { QueueTopology } from './lib/queue-topology.mjs';
import { buildAndPack } from './lib/pack-package.mjs';
import { ensureServerPrograms } from './lib/system-packages.mjs';
import { scenarios } from './queue/index.mjs';
import { QueueScope } from './queue/scope.mjs';

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const flag = (/** @type {string} */ name) => args.includes(`--${name}`);
const onlyArgument = args.find((argument) => argument.startsWith('--only='));
const only = onlyArgument ? new RegExp(onlyArgument.slice('--only='.length)) : undefined;
if (flag('keep')) process.env.TOOLBRIDGE_E2E_KEEP = '1';
const keepAll = () => process.env.TOOLBRIDGE_E2E_KEEP === '1';

const SCENARIO_TIMEOUT_MS = 8 * 60_000;
const seconds = (/** @type {number} */ since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const indent = (/** @type {string} */ text) => text.split('\n').map((line) => `      ${line}`).join('\n');

/** @type {RunContext | undefined} */
let context;
/** @type {QueueTopology | undefined} */
let topology;
let interrupted = false;
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
	process.on(signal, () => {
		if (interrupted) process.exit(130);
		interrupted = true;
		console.log(`\n${signal}: stopping n8n, Postgres and Redis …`);
		void Promise.allSettled([topology?.stop(), context?.dispose()]).finally(() => process.exit(130));
	});
}

/**
 * Race a promise against a timeout.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} milliseconds
 * @param {string} what
 * @returns {Promise<T>}
 */
function withTimeout(promise, milliseconds, what) {
	/** @type {NodeJS.Timeout | undefined} */
	let timer;
	const timeout = new Promise((_, reject) => {
		timer = setTimeout(() => reject(new Error(`${what} timed out after ${milliseconds / 1000} s`)), milliseconds);
	});
	return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function main() {
	const started = Date.now();
	console.log('== toolbridge e2e (queue mode): main + 2 workers on Postgres and Redis');
	const setupLog = mkdtempSync(join(tmpdir(), 'toolbridge-e2e-queue-setup-'));
	const log = (/** @type {string} */ line) => console.log(`   ${line}`);

	let install;
	let tarball;
	let programs;
	try {
		const provisionStart = Date.now();
		install = await provision({ log });
		log(`n8n install: ${install.warm ? 'warm (cached)' : 'cold'} in ${seconds(provisionStart)} at ${install.root}`);
		const programsStart = Date.now();
		programs = await ensureServerPrograms({ log, logPath: join(setupLog, 'apt.log') });
		log(`Postgres programs ${programs.postgresBinDir}, ${programs.redisServer}${programs.installed.length ? ` (installed ${programs.installed.join(', ')})` : ''} in ${seconds(programsStart)}`);

		const buildStart = Date.now();
		const packed = await buildAndPack({ repoDir, logDir: setupLog, build: !flag('no-build') });
		tarball = packed.tarball;
		log(`${flag('no-build') ? '' : 'built and '}packed ${packed.filename} in ${seconds(buildStart)}`);

		context = new RunContext({ install, repoDir, tarball, logDir: setupLog });
		const selected = scenarios.filter((scenario) => !only || only.test(scenario.id));
		if (selected.some((scenario) => scenario.needsTopology)) {
			topology = new QueueTopology({ run: context, programs });
			await topology.start(log);
		}
	} catch (error) {
		console.log(`FAIL setup: ${/** @type {Error} */ (error).stack ?? error}`);
		const kept = await topology?.stop(true).catch(() => []);
		if (kept?.length) console.log(`   kept for inspection: ${kept.join(', ')}`);
		console.log(`   setup logs kept in ${setupLog}`);
		console.log('0 passed, 1 failed');
		return 1;
	}

	let passed = 0;
	let failed = 0;
	let pending = 0;
	/** @type {string[]} */
	const figures = [];
	try {
		for (const scenario of scenarios) {
			if (only && !only.test(scenario.id)) continue;
			if (interrupted) break;
			const scope = new QueueScope(context, scenario.id, topology, programs);
			const scenarioStart = Date.now();
			/** @type {Error | undefined} */
			let failure;
			try {
				if (scenario.needsTopology && topology) {
					const restarted = await topology.ensureWorkersRunning();
					if (restarted.length > 0) scope.note(`restarted before this scenario: ${restarted.join(', ')}`);
				}
				await withTimeout(scenario.run(scope), SCENARIO_TIMEOUT_MS, `scenario ${scenario.id}`);
			} catch (error) {
				failure = /** @type {Error} */ (error);
			}
			const realFailure = Boolean(failure && !scenario.pending);
			if (realFailure) context.anyFailure = true;
			await scope.cleanup(realFailure);
			const took = seconds(scenarioStart);
			if (!failure) {
				passed += 1;
				console.log(`PASS ${scenario.id} — ${scenario.title} (${took})${scenario.pending ? ' [passes: remove its pending flag]' : ''}`);
			} else if (scenario.pending) {
				pending += 1;
				console.log(`PENDING ${scenario.id} — ${scenario.title} (${took}): ${scenario.pending}`);
				console.log(indent(`current failure: ${failure.message.split('\n').slice(0, 6).join('\n')}`));
			} else {
				failed += 1;
				console.log(`FAIL ${scenario.id} — ${scenario.title} (${took})`);
				console.log(indent(failure.stack ?? failure.message));
			}
			for (const note of scope.notes) console.log(indent(note));
			figures.push(...scope.figures);
		}
	} finally {
		const kept = [...((await topology?.stop(failed > 0 || keepAll()).catch(() => [])) ?? [])];
		await context.dispose();
		if (kept.length > 0) console.log(`   kept for inspection: ${kept.join(', ')}`);
		if (failed === 0 && !keepAll()) rmSync(setupLog, { recursive: true, force: true });
		else console.log(`   setup logs kept in ${setupLog}`);
	}
	for (const figure of figures) console.log(`   ${figure}`);
	console.log(`   total ${seconds(started)}`);
	// The plain closing line CI reads: PENDING rows count as skipped (each printed its reason above).
	console.log(`${passed} passed, ${failed} failed${pending ? `, ${pending} skipped` : ''}`);
	return failed > 0 || interrupted ? 1 : 0;
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.log(`FAIL e2e harness: ${error?.stack ?? error}`);
		console.log('0 passed, 1 failed');
		process.exit(1);
	},
);
