// @ts-check
/**
 * What the e2e runners (run-e2e.mjs, run-e2e-queue.mjs, run-e2e-compat.mjs) share: their
 * command line, the interrupt handler, one scenario's run and report lines, the closing
 * `N passed, N failed[, N skipped]` line and the exit code.
 */

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildAndPack } from './pack-package.mjs';
import { provision } from './provision.mjs';

/**
 * The runner's command line: `--<name>` flags, `--<name>=<value>` options, `--only=<regex>`;
 * `--keep` sets TOOLBRIDGE_E2E_KEEP=1.
 * @param {string[]} [args]
 * @returns {{ flag: (name: string) => boolean, valueOf: (name: string) => string | undefined, only: RegExp | undefined }}
 */
export function parseRunnerArgs(args = process.argv.slice(2)) {
	const flag = (/** @type {string} */ name) => args.includes(`--${name}`);
	const valueOf = (/** @type {string} */ name) =>
		args.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
	const onlyValue = valueOf('only');
	const only = onlyValue ? new RegExp(onlyValue) : undefined;
	if (flag('keep')) process.env.TOOLBRIDGE_E2E_KEEP = '1';
	return { flag, valueOf, only };
}

/** @param {number} since @returns {string} the time since `since`, e.g. `12.3 s` */
export const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** @param {string} text @returns {string} every line indented under a report line */
export const indent = (text) =>
	text
		.split('\n')
		.map((line) => `      ${line}`)
		.join('\n');

/**
 * Race a promise against a timeout.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} milliseconds
 * @param {string} what
 * @returns {Promise<T>}
 */
export function withTimeout(promise, milliseconds, what) {
	/** @type {NodeJS.Timeout | undefined} */
	let timer;
	const timeout = new Promise((_, reject) => {
		timer = setTimeout(
			() => reject(new Error(`${what} timed out after ${milliseconds / 1000} s`)),
			milliseconds,
		);
	});
	return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * On the first SIGINT/SIGTERM: print `<signal>: <what>`, run `stop`, exit 130; a second
 * signal exits at once.
 * @param {string} what e.g. `stopping n8n instances …`
 * @param {() => Promise<unknown>} stop
 * @returns {() => boolean} whether a signal came
 */
export function onInterrupt(what, stop) {
	let interrupted = false;
	for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
		process.on(signal, () => {
			if (interrupted) process.exit(130);
			interrupted = true;
			console.log(`\n${signal}: ${what}`);
			void stop().finally(() => process.exit(130));
		});
	}
	return () => interrupted;
}

/**
 * The counts behind the closing line.
 */
export class Tally {
	constructor() {
		this.passed = 0;
		this.failed = 0;
		/** SKIP and PENDING rows (each printed its reason). */
		this.skipped = 0;
	}

	/** @returns {string} `N passed, N failed[, N skipped]`, the line CI reads */
	get line() {
		return `${this.passed} passed, ${this.failed} failed${this.skipped ? `, ${this.skipped} skipped` : ''}`;
	}

	/**
	 * Print the closing line.
	 * @param {boolean} interrupted
	 * @returns {number} the exit code: 1 on a failure or an interrupt
	 */
	finish(interrupted) {
		console.log(this.line);
		return this.failed > 0 || interrupted ? 1 : 0;
	}
}

/**
 * Print the lines of a run that failed before its first scenario.
 * @param {string} detail
 * @param {() => Promise<void>} [more] prints what goes between the FAIL line and the closing line
 * @returns {Promise<number>} the exit code 1
 */
export async function setupFailed(detail, more) {
	console.log(`FAIL setup: ${detail}`);
	await more?.();
	console.log('0 passed, 1 failed');
	return 1;
}

/**
 * Run a runner's `main()` and exit with its code; a throw prints `FAIL <harness>: …`.
 * @param {() => Promise<number>} main
 * @param {string} [harness]
 */
export function runMain(main, harness = 'e2e harness') {
	main().then(
		(code) => process.exit(code),
		(error) => {
			console.log(`FAIL ${harness}: ${error?.stack ?? error}`);
			console.log('0 passed, 1 failed');
			process.exit(1);
		},
	);
}

/**
 * The report lines of a scenario of the main and queue suites: `<id> — <title> (<took>)`, a
 * pending one's reason after it, and a hint when a pending scenario passes.
 * @param {{ id: string, title: string, pending?: string }} scenario
 * @returns {ScenarioLines}
 */
export function scenarioLines(scenario) {
	return {
		pass: (took) =>
			`${scenario.id} — ${scenario.title} (${took})${scenario.pending ? ' [passes: remove its pending flag]' : ''}`,
		pending: (took) => `${scenario.id} — ${scenario.title} (${took}): ${scenario.pending}`,
		fail: (took) => `${scenario.id} — ${scenario.title} (${took})`,
	};
}

/** The repository the e2e runners test. */
export const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * Build (unless `build` is false) and pack this repo for the run — or reuse the tarball an
 * earlier suite packed from the same files; prints one setup line.
 * @param {{ logDir: string, build: boolean, log: (line: string) => void }} options
 * @returns {Promise<string>} the tarball's path
 * @throws {Error} with the log tail when the build or the pack fails
 */
export async function packForRun({ logDir, build, log }) {
	const started = Date.now();
	const packed = await buildAndPack({ repoDir, logDir, build });
	const how = packed.reused ? 'reused the tarball packed earlier from the same files:' : 'packed';
	log(
		`${build ? 'built, ' : ''}${how} ${packed.filename} (${packed.entryCount} files) in ${seconds(started)}`,
	);
	return packed.tarball;
}

/**
 * Provision the pinned n8n and Node (lib/provision.mjs) for the run; prints one setup line.
 * @param {(line: string) => void} log
 * @returns {Promise<import('./provision.mjs').Provisioned>}
 * @throws {Error} when an install step fails
 */
export async function provisionForRun(log) {
	const started = Date.now();
	const install = await provision({ log });
	log(
		`n8n install: ${install.warm ? 'warm (cached)' : 'cold'} in ${seconds(started)} at ${install.root}`,
	);
	return install;
}

/**
 * @template [T=void]
 * @typedef {object} ScenarioLines
 * @property {(took: string, result: T | undefined) => string} pass the text after `PASS `
 * @property {(took: string) => string} pending the text after `PENDING `
 * @property {(took: string) => string} fail the text after `FAIL `
 * @property {(failure: Error) => string} [describe] what is printed under a FAIL line (default: the stack)
 * @property {(line: string) => void} [print] prints a report line (default console.log)
 */

/**
 * Run one scenario in its scope: `prepare`, `run` within `timeoutMs`, the scope's cleanup
 * (its folders kept on a real failure), then its `PASS|PENDING|FAIL` line, the failure and its
 * notes; counts it in `tally`. A failure of a `pending` scenario is PENDING (counted as skipped).
 * @template T
 * @param {object} options
 * @param {{ id: string, pending?: string }} options.scenario
 * @param {{ notes: string[], cleanup: (keep?: boolean) => Promise<void> }} options.scope
 * @param {{ anyFailure: boolean }} options.context set when the scenario really failed
 * @param {() => Promise<T>} options.run
 * @param {number} options.timeoutMs
 * @param {Tally} options.tally
 * @param {ScenarioLines<T>} options.lines
 * @param {() => Promise<void>} [options.prepare] runs first, outside the timeout; a throw fails the scenario
 * @returns {Promise<void>}
 */
export async function runScenario({
	scenario,
	scope,
	context,
	run,
	timeoutMs,
	tally,
	lines,
	prepare,
}) {
	const print = lines.print ?? ((/** @type {string} */ line) => console.log(line));
	const describe =
		lines.describe ?? ((/** @type {Error} */ failure) => failure.stack ?? failure.message);
	const started = Date.now();
	/** @type {Error | undefined} */
	let failure;
	/** @type {T | undefined} */
	let result;
	try {
		if (prepare) await prepare();
		result = await withTimeout(run(), timeoutMs, `scenario ${scenario.id}`);
	} catch (error) {
		failure = /** @type {Error} */ (error);
	}
	const realFailure = Boolean(failure && !scenario.pending);
	if (realFailure) context.anyFailure = true;
	await scope.cleanup(realFailure);
	const took = seconds(started);
	if (!failure) {
		tally.passed += 1;
		print(`PASS ${lines.pass(took, result)}`);
	} else if (scenario.pending) {
		tally.skipped += 1;
		print(`PENDING ${lines.pending(took)}`);
		console.log(indent(`current failure: ${failure.message.split('\n').slice(0, 6).join('\n')}`));
	} else {
		tally.failed += 1;
		print(`FAIL ${lines.fail(took)}`);
		console.log(indent(describe(failure)));
	}
	for (const note of scope.notes) console.log(indent(note));
}
