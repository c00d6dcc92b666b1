#!/usr/bin/env node
// @ts-check
/**
 * `node test/e2e/provision-all.mjs [--ci]`: install ahead of time everything the e2e suites
 * install outside the repo — the pinned n8n + Node (test:e2e, test:e2e:queue), the compat
 * matrix's releases (test:e2e:compat; with --ci the entries `.ci/run` runs), Postgres and Redis
 * (test:e2e:queue) — two n8n installs at a time, the system packages beside them.
 *
 * `.ci/run` starts it in the background after `npm ci`, so the installs wait on the network
 * while lint, build and the unit tests use the CPU. Each suite still provisions for itself (then
 * from the warm cache): a failure here only means the suite reports it. Prints one line per
 * install with its time; exits 1 when one failed.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CI_LABELS, resolveMatrix, selectEntries } from './compat/matrix.mjs';
import { provisionEntry } from './compat/provision-release.mjs';
import { pool } from './lib/pool.mjs';
import { provision } from './lib/provision.mjs';
import { seconds } from './lib/runner.mjs';
import { ensureServerPrograms } from './lib/system-packages.mjs';
import { N8N_VERSION, NODE_VERSION } from './lib/versions.mjs';

// A signal (CI stopping early) exits through 'exit', whose handlers kill the npm process groups
// and release the cache locks.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
	process.on(signal, () => process.exit(130));

const log = (/** @type {string} */ line) => console.log(line);
const started = Date.now();
let failed = false;

/**
 * Run one install and print how it went.
 * @param {string} what
 * @param {() => Promise<string>} install resolves to how it went, with its time
 * @returns {Promise<void>}
 */
async function report(what, install) {
	const installStarted = Date.now();
	try {
		log(`provision ${what}: ${await install()}`);
	} catch (error) {
		failed = true;
		log(
			`provision ${what}: FAILED after ${seconds(installStarted)}: ${/** @type {Error} */ (error).message}`,
		);
	}
}

const systemPackages = report('Postgres and Redis programs', async () => {
	const programs = await ensureServerPrograms({
		log,
		logPath: join(tmpdir(), 'toolbridge-provision-apt.log'),
	});
	const how = programs.installed.length ? `installed ${programs.installed.join(', ')}` : 'found';
	return `${how} in ${seconds(started)}`;
});

const entries = await resolveMatrix(
	selectEntries(process.argv.includes('--ci') ? CI_LABELS : undefined),
).catch((error) => {
	failed = true;
	log(`provision: the compat matrix did not resolve: ${error.message}`);
	return [];
});
const installs = [
	() =>
		report(`n8n ${N8N_VERSION} + Node ${NODE_VERSION} (test:e2e, test:e2e:queue)`, async () => {
			const install = await provision({ log: (line) => log(`   [${N8N_VERSION}] ${line.trim()}`) });
			return `${install.warm ? 'warm (cached)' : 'cold install'} in ${install.seconds.toFixed(1)} s`;
		}),
	...entries.map(
		(entry) => () =>
			report(
				`compat ${entry.label} (n8n ${entry.version}, Node ${entry.nodeVersion})`,
				async () => {
					const { notes } = await provisionEntry(entry, log);
					return notes.join('; ');
				},
			),
	),
];
await Promise.all([systemPackages, ...pool(installs, 2)]);
log(`provision: all done in ${seconds(started)}${failed ? ' (with failures)' : ''}`);
process.exit(failed ? 1 : 0);
