// @ts-check
/**
 * Install one entry of the compat matrix (an n8n release and the Node its `engines` asks for)
 * into the e2e cache: run-e2e-compat.mjs before its rows, provision-all.mjs ahead of CI's suites.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

import { provision, provisionPaths } from '../lib/provision.mjs';
import { seconds } from '../lib/runner.mjs';
import { nodeVersionFor } from './matrix.mjs';

/** A release that failed to install for a registry reason is not retried for this long. */
const UNINSTALLABLE_RETRY_MS = 24 * 3600_000;

/** Whether an npm failure means "the registry cannot serve this release's dependency tree". */
const isRegistryGap = (/** @type {string} */ message) =>
	/ETARGET|E404|No matching version found|notarget/.test(message);

/**
 * Provision a matrix entry; for `newest`, a release whose dependency tree the registry
 * cannot serve is recorded (and not retried for a day) and the next release down is used.
 * @param {import('./matrix.mjs').ResolvedEntry} entry
 * @param {(line: string) => void} [log] prints an install step
 * @returns {Promise<{ install: import('../lib/provision.mjs').Provisioned, version: string, notes: string[] }>}
 * @throws {Error} when no candidate installs
 */
export async function provisionEntry(entry, log = (line) => console.log(line)) {
	/** @type {string[]} */
	const notes = [];
	const candidates = [entry.version, ...entry.fallbacks];
	for (const [index, version] of candidates.entries()) {
		const candidate = {
			version,
			nodeVersion: index === 0 ? entry.nodeVersion : await nodeVersionFor(version),
		};
		const paths = provisionPaths({
			n8nVersion: candidate.version,
			nodeVersion: candidate.nodeVersion,
		});
		const marker = `${paths.root}.uninstallable.json`;
		const isLast = index === candidates.length - 1;
		if (!isLast && existsSync(marker)) {
			const recorded = JSON.parse(readFileSync(marker, 'utf8'));
			if (Date.now() - Date.parse(recorded.at) < UNINSTALLABLE_RETRY_MS) {
				notes.push(
					`n8n ${candidate.version} does not install from this registry (recorded ${recorded.at}): ${recorded.reason}`,
				);
				continue;
			}
		}
		const started = Date.now();
		try {
			const install = await provision({
				n8nVersion: candidate.version,
				nodeVersion: candidate.nodeVersion,
				log: (line) => log(`   [${candidate.version}] ${line.trim()}`),
			});
			notes.push(
				`n8n ${candidate.version} + Node ${candidate.nodeVersion}: ${install.warm ? 'warm (cached)' : 'cold install'} in ${seconds(started)}`,
			);
			return { install, version: candidate.version, notes };
		} catch (error) {
			const message = /** @type {Error} */ (error).message;
			if (isLast || !isRegistryGap(message)) throw error;
			const reason =
				/(No matching version found for \S+|notarget[^\n]*|E404[^\n]*)/.exec(message)?.[1] ??
				message.split('\n')[0];
			writeFileSync(marker, JSON.stringify({ at: new Date().toISOString(), reason }, null, '\t'));
			rmSync(paths.root, { recursive: true, force: true });
			notes.push(`n8n ${candidate.version} does not install from this registry: ${reason}`);
		}
	}
	throw new Error(`no release of '${entry.label}' installs`);
}
