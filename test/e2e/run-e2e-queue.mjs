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
import {
	onInterrupt,
	packForRun,
	parseRunnerArgs,
	runMain,
	runScenario,
	scenarioLines,
	seconds,
	setupFailed,
	Tally,
} from './lib/runner.mjs';
import { ensureServerPrograms } from './lib/system-packages.mjs';
import { scenarios } from './queue/index.mjs';
import { QueueScope } from './queue/scope.mjs';

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { flag, only } = parseRunnerArgs();
const keepAll = () => process.env.TOOLBRIDGE_E2E_KEEP === '1';

const SCENARIO_TIMEOUT_MS = 8 * 60_000;

/** @type {RunContext | undefined} */
let context;
/** @type {QueueTopology | undefined} */
let topology;
const interrupted = onInterrupt('stopping n8n, Postgres and Redis …', () =>
	Promise.allSettled([topology?.stop(), context?.dispose()]),
);

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
		log(
			`n8n install: ${install.warm ? 'warm (cached)' : 'cold'} in ${seconds(provisionStart)} at ${install.root}`,
		);
		const programsStart = Date.now();
		programs = await ensureServerPrograms({ log, logPath: join(setupLog, 'apt.log') });
		log(
			`Postgres programs ${programs.postgresBinDir}, ${programs.redisServer}${programs.installed.length ? ` (installed ${programs.installed.join(', ')})` : ''} in ${seconds(programsStart)}`,
		);

		tarball = await packForRun({ repoDir, logDir: setupLog, build: !flag('no-build'), log });

		context = new RunContext({ install, repoDir, tarball, logDir: setupLog });
		const selected = scenarios.filter((scenario) => !only || only.test(scenario.id));
		if (selected.some((scenario) => scenario.needsTopology)) {
			topology = new QueueTopology({ run: context, programs });
			await topology.start(log);
		}
	} catch (error) {
		return setupFailed(`${/** @type {Error} */ (error).stack ?? error}`, async () => {
			const kept = await topology?.stop(true).catch(() => []);
			if (kept?.length) console.log(`   kept for inspection: ${kept.join(', ')}`);
			console.log(`   setup logs kept in ${setupLog}`);
		});
	}

	const run = context;
	const tally = new Tally();
	/** @type {string[]} */
	const figures = [];
	try {
		for (const scenario of scenarios) {
			if (only && !only.test(scenario.id)) continue;
			if (interrupted()) break;
			const scope = new QueueScope(run, scenario.id, topology, programs);
			await runScenario({
				scenario,
				scope,
				context: run,
				prepare: async () => {
					if (scenario.needsTopology && topology) {
						const restarted = await topology.ensureWorkersRunning();
						if (restarted.length > 0)
							scope.note(`restarted before this scenario: ${restarted.join(', ')}`);
					}
				},
				run: () => scenario.run(scope),
				timeoutMs: SCENARIO_TIMEOUT_MS,
				tally,
				lines: scenarioLines(scenario),
			});
			figures.push(...scope.figures);
		}
	} finally {
		const kept = [...((await topology?.stop(tally.failed > 0 || keepAll()).catch(() => [])) ?? [])];
		await run.dispose();
		if (kept.length > 0) console.log(`   kept for inspection: ${kept.join(', ')}`);
		if (tally.failed === 0 && !keepAll()) rmSync(setupLog, { recursive: true, force: true });
		else console.log(`   setup logs kept in ${setupLog}`);
	}
	for (const figure of figures) console.log(`   ${figure}`);
	console.log(`   total ${seconds(started)}`);
	// The plain closing line CI reads: PENDING rows count as skipped (each printed its reason above).
	return tally.finish(interrupted());
}

runMain(main);
