// @ts-check
/**
 * The run of a scenario suite on one n8n release (run-e2e.mjs, run-e2e-queue.mjs): a title
 * line, the setup (its failure is one `FAIL setup` line), one report line per scenario of the
 * table (`--only` filters it, a signal stops it), the teardown whatever happened, the figures,
 * the total time and the closing `N passed, N failed[, N skipped]` line with the exit code.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	indent,
	onInterrupt,
	runScenario,
	scenarioLines,
	seconds,
	setupFailed,
	Tally,
} from './runner.mjs';

/**
 * @template {{ id: string, title: string, pending?: string }} S the scenario row
 * @template {import('./context.mjs').ScenarioScope} Scope
 * @typedef {object} SuiteRun what a suite's setup made
 * @property {import('./context.mjs').RunContext} context
 * @property {(scenario: S) => Scope} scopeFor
 * @property {(scenario: S) => string | undefined} [skip] why a row cannot run here (a SKIP line)
 * @property {(scenario: S, scope: Scope) => Promise<void>} [prepare] before a row, outside its timeout
 */

/**
 * What a suite's setup gets.
 * @typedef {object} SuiteSetup
 * @property {string} setupLog the folder for setup logs
 * @property {(line: string) => void} log prints an indented setup line
 * @property {(stop: (keep: boolean) => Promise<string[]>) => void} onStop registers what stops the
 *   processes the setup starts (called once: at the end, on a setup failure or on a signal, before
 *   the context is disposed; `keep`: keep their folders; returns the folders kept)
 */

/**
 * @template {{ id: string, title: string, pending?: string, run: (scope: any) => Promise<void> }} S
 * @template {import('./context.mjs').ScenarioScope} Scope
 * @param {object} suite
 * @param {string} suite.title the first line
 * @param {string} suite.name short name for the setup log folder, e.g. `e2e-queue`
 * @param {S[]} suite.scenarios the table
 * @param {RegExp | undefined} suite.only
 * @param {number} suite.timeoutMs per scenario
 * @param {string} suite.interruptNote what a signal stops, e.g. `stopping n8n instances …`
 * @param {(setup: SuiteSetup) => Promise<SuiteRun<S, Scope> | undefined>} suite.setup
 *   `undefined`: nothing to run (e.g. --provision-only); a throw is the FAIL setup line
 * @param {(scope: Scope) => string[]} [suite.figures] lines a scenario leaves for the end of the run
 * @returns {Promise<number>} the exit code
 */
export async function runSuite(suite) {
	const started = Date.now();
	const keepAll = () => process.env.TOOLBRIDGE_E2E_KEEP === '1';
	console.log(suite.title);
	const setupLog = mkdtempSync(join(tmpdir(), `toolbridge-${suite.name}-setup-`));
	const log = (/** @type {string} */ line) => console.log(`   ${line}`);
	/** @type {SuiteRun<S, Scope> | undefined} */
	let run;
	/** @type {((keep: boolean) => Promise<string[]>) | undefined} */
	let stopStarted;
	/** @type {Promise<string[]> | undefined} */
	let stopping;
	/** Stop what the setup started, once (the run's end and a signal may both ask). */
	const stop = (/** @type {boolean} */ keep) =>
		(stopping ??= (stopStarted?.(keep) ?? Promise.resolve([])).catch(() => []));
	const interrupted = onInterrupt(suite.interruptNote, () =>
		Promise.allSettled([stop(false), run?.context.dispose()]),
	);

	try {
		run = await suite.setup({
			setupLog,
			log,
			onStop: (stopFunction) => (stopStarted = stopFunction),
		});
	} catch (error) {
		const failure = /** @type {Error} */ (error);
		return setupFailed(failure.message ?? String(error), async () => {
			const frames = (failure.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
			if (frames.length > 0)
				console.log(indent(frames.slice(0, 8).join('\n').replace(/^\s+/gm, '')));
			const kept = await stop(true);
			if (kept.length) log(`kept for inspection: ${kept.join(', ')}`);
			log(`setup logs kept in ${setupLog}`);
		});
	}
	if (!run) {
		rmSync(setupLog, { recursive: true, force: true });
		return 0;
	}

	const { context } = run;
	const tally = new Tally();
	/** @type {string[]} */
	const figures = [];
	try {
		for (const scenario of suite.scenarios) {
			if (suite.only && !suite.only.test(scenario.id)) continue;
			if (interrupted()) break;
			const skipReason = run.skip?.(scenario);
			if (skipReason) {
				tally.skipped += 1;
				console.log(`SKIP ${scenario.id} — ${scenario.title} (${skipReason})`);
				continue;
			}
			const scope = run.scopeFor(scenario);
			const prepare = run.prepare;
			await runScenario({
				scenario,
				scope,
				context,
				prepare: prepare && (() => prepare(scenario, scope)),
				run: () => scenario.run(scope),
				timeoutMs: suite.timeoutMs,
				tally,
				lines: scenarioLines(scenario),
			});
			figures.push(...(suite.figures?.(scope) ?? []));
		}
	} finally {
		const kept = await stop(tally.failed > 0 || keepAll());
		await context.dispose();
		if (kept.length > 0) log(`kept for inspection: ${kept.join(', ')}`);
		if (tally.failed === 0 && !keepAll()) rmSync(setupLog, { recursive: true, force: true });
		else log(`setup logs kept in ${setupLog}`);
	}
	for (const figure of figures) log(figure);
	log(`total ${seconds(started)}`);
	return tally.finish(interrupted());
}
