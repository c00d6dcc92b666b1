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
import { buildAndPack } from './lib/pack-package.mjs';
import { provision } from './lib/provision.mjs';
import { scenarios } from './scenarios/index.mjs';

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const flag = (/** @type {string} */ name) => args.includes(`--${name}`);
const onlyArgument = args.find((argument) => argument.startsWith('--only='));
const only = onlyArgument ? new RegExp(onlyArgument.slice('--only='.length)) : undefined;
if (flag('keep')) process.env.TOOLBRIDGE_E2E_KEEP = '1';

const SCENARIO_TIMEOUT_MS = 10 * 60_000;
const seconds = (/** @type {number} */ since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const indent = (/** @type {string} */ text) => text.split('\n').map((line) => `      ${line}`).join('\n');

/** @type {RunContext | undefined} */
let context;
let interrupted = false;
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
	process.on(signal, () => {
		if (interrupted) process.exit(130);
		interrupted = true;
		console.log(`\n${signal}: stopping n8n instances …`);
		void (context?.dispose() ?? Promise.resolve()).finally(() => process.exit(130));
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
	console.log('== toolbridge e2e: the package in a real n8n');
	const setupLog = mkdtempSync(join(tmpdir(), 'toolbridge-e2e-setup-'));

	let install;
	let tarball;
	try {
		const provisionStart = Date.now();
		install = await provision({ log: (line) => console.log(`   ${line}`) });
		console.log(`   n8n install: ${install.warm ? 'warm (cached)' : 'cold'} in ${seconds(provisionStart)} at ${install.root}`);
		if (flag('provision-only')) return 0;

		const buildStart = Date.now();
		const packed = await buildAndPack({ repoDir, logDir: setupLog, build: !flag('no-build') });
		tarball = packed.tarball;
		console.log(`   ${flag('no-build') ? '' : 'built and '}packed ${packed.filename} (${packed.entryCount} files) in ${seconds(buildStart)}`);
	} catch (error) {
		console.log(`FAIL setup: ${/** @type {Error} */ (error).message}`);
		console.log('0 passed, 1 failed');
		return 1;
	}

	context = new RunContext({ install, repoDir, tarball, logDir: setupLog });
	let passed = 0;
	let failed = 0;
	let skipped = 0;
	try {
		for (const scenario of scenarios) {
			if (only && !only.test(scenario.id)) continue;
			if (interrupted) break;
			const missing = scenario.needs.filter((need) => need === 'fake' && !context?.hasFakeServer);
			if (missing.length > 0) {
				skipped += 1;
				console.log(`SKIP ${scenario.id} — ${scenario.title} (missing: test/support/fake-chat-server.ts)`);
				continue;
			}
			const scope = new ScenarioScope(context, scenario.id);
			const scenarioStart = Date.now();
			/** @type {Error | undefined} */
			let failure;
			try {
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
				skipped += 1;
				console.log(`PENDING ${scenario.id} — ${scenario.title} (${took}): ${scenario.pending}`);
				console.log(indent(`current failure: ${failure.message.split('\n').slice(0, 6).join('\n')}`));
			} else {
				failed += 1;
				console.log(`FAIL ${scenario.id} — ${scenario.title} (${took})`);
				console.log(indent(failure.stack ?? failure.message));
			}
			for (const note of scope.notes) console.log(indent(note));
		}
	} finally {
		await context.dispose();
		if (failed === 0) rmSync(setupLog, { recursive: true, force: true });
		else console.log(`   setup logs kept in ${setupLog}`);
	}
	console.log(`   total ${seconds(started)}`);
	console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
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
