#!/usr/bin/env node
// @ts-check
/**
 * `npm run test:e2e:compat`: the e2e core scenarios (compat/scenarios.mjs) on a matrix of
 * n8n releases (compat/matrix.mjs): the supported floor, the last 1.x, 2.4.8 and the newest
 * n8n on the registry, each on the Node its `engines` asks for.
 *
 * 1. pin the matrix to exact releases (registry look-up) and print it
 * 2. build and `npm pack` this repo once
 * 3. provision each (n8n, Node) pair into the e2e cache (lib/provision.mjs; two at a time,
 *    the next release installs while the previous one's scenarios run)
 * 4. per release: read what it offers (compat/n8n-profile.mjs: node typeVersions, engine
 *    features), install the package the way n8n installs community packages, run the rows
 * 5. print `PASS|FAIL|PENDING|SKIP <n8n version> <scenario>` per row and `N passed, N failed`;
 *    exit 1 on any failure
 *
 * Options: --matrix=<labels or versions, comma-separated> (default: every entry; labels
 * floor, 1.123, 2.4.8, newest), --ci (the entries `.ci/run` runs), --only=<regex> (scenario
 * ids), --no-build, --provision-only, --keep. Env: TOOLBRIDGE_E2E_CACHE (cache root),
 * TOOLBRIDGE_E2E_PROVISION_CONCURRENCY (default 2).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CI_LABELS, resolveMatrix, selectEntries } from './compat/matrix.mjs';
import { describeProfile, readN8nProfile } from './compat/n8n-profile.mjs';
import { provisionEntry } from './compat/provision-release.mjs';
import { compatScenarios } from './compat/scenarios.mjs';
import { RunContext, ScenarioScope } from './lib/context.mjs';
import { pool } from './lib/pool.mjs';
import {
	indent,
	onInterrupt,
	packForRun,
	parseRunnerArgs,
	repoDir,
	runMain,
	runScenario,
	seconds,
	setupFailed,
	Tally,
} from './lib/runner.mjs';

const { flag, valueOf, only } = parseRunnerArgs();

const SCENARIO_TIMEOUT_MS = 10 * 60_000;

/** @type {Set<RunContext>} */
const contexts = new Set();
const interrupted = onInterrupt('stopping n8n instances …', () =>
	Promise.all([...contexts].map((context) => context.dispose())),
);

/**
 * A failure's message and the stack frames of this harness (a fake-model assertion's stack
 * otherwise carries tsx's whole inlined module source).
 * @param {Error} failure
 * @returns {string}
 */
function describeFailure(failure) {
	const frames = (failure.stack ?? '')
		.split('\n')
		.filter((line) => /^\s+at /.test(line) && !line.includes('data:text/javascript'));
	return [failure.message, ...frames.slice(0, 4)].join('\n');
}

async function main() {
	const started = Date.now();
	console.log('== toolbridge e2e compat: core scenarios on a matrix of n8n releases');
	// One folder per run for everything (build logs, tarball, every n8n instance): TMPDIR points
	// into it, so nothing else that tidies up /tmp/toolbridge-e2e-* removes a live instance.
	const runRoot = mkdtempSync(join(tmpdir(), 'toolbridge-compat-'));
	const setupLog = join(runRoot, 'setup');
	mkdirSync(join(runRoot, 'tmp'), { recursive: true });
	mkdirSync(setupLog, { recursive: true });
	process.env.TMPDIR = join(runRoot, 'tmp');
	const entries = selectEntries(flag('ci') ? CI_LABELS : valueOf('matrix')?.split(','));

	let resolved;
	let tarball;
	try {
		resolved = await resolveMatrix(entries);
		for (const entry of resolved) {
			console.log(
				`   ${entry.label}: n8n ${entry.version} on Node ${entry.nodeVersion}${entry.label === 'newest' ? ' (the newest n8n on the registry now)' : ''}`,
			);
		}
		if (!flag('provision-only')) {
			tarball = await packForRun({
				logDir: setupLog,
				build: !flag('no-build'),
				log: (line) => console.log(`   ${line}`),
			});
		}
	} catch (error) {
		return setupFailed(/** @type {Error} */ (error).message);
	}

	const concurrency = Number(process.env.TOOLBRIDGE_E2E_PROVISION_CONCURRENCY ?? 2);
	const provisions = pool(
		resolved.map(
			(entry) => () =>
				provisionEntry(entry).then(
					(value) => ({ ok: /** @type {const} */ (true), value }),
					(error) => ({ ok: /** @type {const} */ (false), error }),
				),
		),
		concurrency,
	);

	const tally = new Tally();
	/** @type {string[]} */
	const summary = [];
	const record = (/** @type {string} */ line) => {
		console.log(line);
		summary.push(line);
	};
	for (const [index, entry] of resolved.entries()) {
		if (interrupted()) break;
		const provisioned = await provisions[index];
		if (!provisioned.ok) {
			tally.failed += 1;
			record(`FAIL ${entry.version} setup — provisioning failed`);
			console.log(indent(/** @type {Error} */ (provisioned.error).message));
			continue;
		}
		const { install, version, notes } = provisioned.value;
		console.log(`== n8n ${version} (${entry.label})`);
		for (const note of notes) console.log(`   ${note}`);
		if (flag('provision-only')) continue;
		let profile;
		try {
			profile = readN8nProfile(install.n8nDir);
		} catch (error) {
			tally.failed += 1;
			record(`FAIL ${version} setup — ${/** @type {Error} */ (error).message}`);
			continue;
		}
		console.log(`   ${describeProfile(profile)}`);
		const context = new RunContext({
			install,
			repoDir,
			tarball: /** @type {string} */ (tarball),
			logDir: setupLog,
		});
		contexts.add(context);
		try {
			for (const scenario of compatScenarios) {
				if (only && !only.test(scenario.id)) continue;
				if (interrupted()) break;
				const skipReason = scenario.skip?.(profile);
				if (skipReason) {
					tally.skipped += 1;
					record(`SKIP ${version} ${scenario.id} — ${skipReason}`);
					continue;
				}
				const scope = new ScenarioScope(context, scenario.id);
				await runScenario({
					scenario,
					scope,
					context,
					run: () => scenario.run(scope, profile),
					timeoutMs: SCENARIO_TIMEOUT_MS,
					tally,
					lines: {
						pass: (took, line) => `${version} ${scenario.id} (${took}) — ${line ?? scenario.title}`,
						pending: (took) => `${version} ${scenario.id} (${took}) — ${scenario.pending}`,
						fail: (took) => `${version} ${scenario.id} (${took}) — ${scenario.title}`,
						describe: describeFailure,
						print: record,
					},
				});
			}
		} finally {
			await context.dispose();
			contexts.delete(context);
		}
	}
	await Promise.allSettled(provisions);
	if (tally.failed === 0 && process.env.TOOLBRIDGE_E2E_KEEP !== '1')
		rmSync(runRoot, { recursive: true, force: true });
	else console.log(`   logs and n8n folders kept in ${runRoot}`);
	console.log(`== summary (total ${seconds(started)})`);
	for (const line of summary) console.log(line);
	return tally.finish(interrupted());
}

runMain(main, 'e2e compat harness');
