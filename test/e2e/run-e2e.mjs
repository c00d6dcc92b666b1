#!/usr/bin/env node
// @ts-check
/**
 * `npm run test:e2e`: the package in a real n8n 2.41.
 *
 * 1. provision Node 24 + n8n (cached outside the repo, keyed on versions; see lib/provision.mjs)
 * 2. build and `npm pack` this repo once
 * 3. run the scenario table (scenarios/index.mjs): each gets throw-away n8n instances with
 *    the package installed the way n8n installs community packages, and loopback fake models
 * 4. print one line per scenario and `N passed, N failed[, N skipped]`; exit 1 on any failure
 *
 * Options: --only=<regex> (scenario ids), --no-build, --provision-only, --keep (keep the temp
 * n8n folders; TOOLBRIDGE_E2E_KEEP=1 does the same). Cache: TOOLBRIDGE_E2E_CACHE.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { RunContext, ScenarioScope } from './lib/context.mjs';
import { provision } from './lib/provision.mjs';
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
import { scenarios } from './scenarios/index.mjs';

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { flag, only } = parseRunnerArgs();

const SCENARIO_TIMEOUT_MS = 10 * 60_000;

/** @type {RunContext | undefined} */
let context;
const interrupted = onInterrupt(
	'stopping n8n instances …',
	() => context?.dispose() ?? Promise.resolve(),
);

async function main() {
	const started = Date.now();
	console.log('== toolbridge e2e: the package in a real n8n');
	const setupLog = mkdtempSync(join(tmpdir(), 'toolbridge-e2e-setup-'));

	let install;
	let tarball;
	try {
		const provisionStart = Date.now();
		install = await provision({ log: (line) => console.log(`   ${line}`) });
		console.log(
			`   n8n install: ${install.warm ? 'warm (cached)' : 'cold'} in ${seconds(provisionStart)} at ${install.root}`,
		);
		if (flag('provision-only')) return 0;

		tarball = await packForRun({
			repoDir,
			logDir: setupLog,
			build: !flag('no-build'),
			log: (line) => console.log(`   ${line}`),
		});
	} catch (error) {
		return setupFailed(/** @type {Error} */ (error).message);
	}

	const run = new RunContext({ install, repoDir, tarball, logDir: setupLog });
	context = run;
	const tally = new Tally();
	try {
		for (const scenario of scenarios) {
			if (only && !only.test(scenario.id)) continue;
			if (interrupted()) break;
			const missing = scenario.needs.filter((need) => need === 'fake' && !run.hasFakeServer);
			if (missing.length > 0) {
				tally.skipped += 1;
				console.log(
					`SKIP ${scenario.id} — ${scenario.title} (missing: test/support/fake-chat-server.ts)`,
				);
				continue;
			}
			const scope = new ScenarioScope(run, scenario.id);
			await runScenario({
				scenario,
				scope,
				context: run,
				run: () => scenario.run(scope),
				timeoutMs: SCENARIO_TIMEOUT_MS,
				tally,
				lines: scenarioLines(scenario),
			});
		}
	} finally {
		await run.dispose();
		if (tally.failed === 0) rmSync(setupLog, { recursive: true, force: true });
		else console.log(`   setup logs kept in ${setupLog}`);
	}
	console.log(`   total ${seconds(started)}`);
	return tally.finish(interrupted());
}

runMain(main);
