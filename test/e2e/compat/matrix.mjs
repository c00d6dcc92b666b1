// @ts-check
/**
 * The compat matrix: which n8n releases `npm run test:e2e:compat` runs, and on which Node.
 *
 * - `floor`: the oldest n8n the README supports (1.100.x);
 * - `1.123`: the last 1.x line (the newest 1.123.x on the registry);
 * - `2.4.8`: the last release before n8n-core tagged tools with `sourceNodeName` (2.6.2);
 * - `newest`: the newest n8n release on the registry at run time. The registry these
 *   machines use can hold an n8n whose pinned dependencies are missing (2.41.3 pins
 *   `@n8n/agents@0.26.2`, absent): such a release is reported and the next one down is used.
 *
 * Each entry is pinned to an exact version at run time and printed, with the Node major
 * chosen from that release's own `engines.node`.
 */
import { runChecked } from '../lib/run-command.mjs';
import { NODE_RELEASES } from '../lib/versions.mjs';

/**
 * @typedef {{ label: string, spec: string }} MatrixEntry
 *   `spec`: an exact version, `latest-of:<prefix>` (newest release starting with it) or `newest`
 * @typedef {{ label: string, version: string, nodeVersion: string, note?: string, fallbacks: string[] }} ResolvedEntry
 *   `fallbacks`: older releases to try when `version` turns out not to install (newest only)
 */

/** The matrix, in report order. */
export const MATRIX = /** @type {const} */ ([
	{ label: 'floor', spec: '1.100.1' },
	{ label: '1.123', spec: 'latest-of:1.123.' },
	{ label: '2.4.8', spec: '2.4.8' },
	{ label: 'newest', spec: 'newest' },
]);

/** Entries `.ci/run` runs (the issue asks for at least these). */
export const CI_LABELS = ['floor', '1.123', 'newest'];

/**
 * The entries a run asks for: labels of {@link MATRIX} or exact versions (`--matrix=`), or
 * every entry.
 * @param {string[] | undefined} wanted
 * @returns {MatrixEntry[]}
 */
export function selectEntries(wanted) {
	if (!wanted) return [...MATRIX];
	return wanted
		.map((label) => label.trim())
		.map((label) => MATRIX.find((entry) => entry.label === label) ?? { label, spec: label });
}

/**
 * Compare two plain `x.y.z` versions.
 * @param {string} left
 * @param {string} right
 * @returns {number}
 */
export function compareVersions(left, right) {
	const a = left.split('.').map(Number);
	const b = right.split('.').map(Number);
	for (let index = 0; index < 3; index++) {
		if ((a[index] ?? 0) !== (b[index] ?? 0)) return (a[index] ?? 0) - (b[index] ?? 0);
	}
	return 0;
}

/**
 * The lowest Node major we can provision that satisfies an `engines.node` range's lower
 * bound (`>=20.19 <= 24.x` → 22; `>=24.0.0` → 24).
 * @param {string} range
 * @returns {number}
 * @throws {Error} when no provisionable major fits
 */
export function nodeMajorFor(range) {
	const minimum = /(?:>=|\^|~)?\s*(\d+)(?:\.(\d+))?/.exec(range ?? '');
	const majors = Object.keys(NODE_RELEASES)
		.map(Number)
		.sort((a, b) => a - b);
	const upper = /<=?\s*(\d+)/.exec(range ?? '');
	const fits = majors.filter(
		(major) => (!minimum || major >= Number(minimum[1])) && (!upper || major <= Number(upper[1])),
	);
	if (fits.length === 0)
		throw new Error(
			`no provisionable Node major (${majors.join(', ')}) satisfies engines.node '${range}'`,
		);
	return fits[0];
}

/**
 * Stable n8n releases on the registry, oldest first.
 * @returns {Promise<string[]>}
 */
async function registryVersions() {
	const { stdout } = await runChecked('npm', ['view', 'n8n', 'versions', '--json']);
	/** @type {string[]} */
	const versions = JSON.parse(stdout);
	return versions.filter((version) => /^\d+\.\d+\.\d+$/.test(version)).sort(compareVersions);
}

/**
 * The Node release for an n8n release (from its `engines.node`).
 * @param {string} n8nVersion
 * @returns {Promise<string>}
 */
export async function nodeVersionFor(n8nVersion) {
	const { stdout } = await runChecked('npm', ['view', `n8n@${n8nVersion}`, 'engines.node']);
	const major = nodeMajorFor(stdout.trim());
	return /** @type {Record<number, string>} */ (NODE_RELEASES)[major];
}

/**
 * Pin each entry to an exact release.
 * @param {readonly MatrixEntry[]} entries
 * @returns {Promise<ResolvedEntry[]>}
 * @throws {Error} when a spec matches nothing on the registry
 */
export async function resolveMatrix(entries) {
	const versions = await registryVersions();
	/** @type {ResolvedEntry[]} */
	const resolved = [];
	for (const entry of entries) {
		/** @type {string[]} */
		let candidates;
		if (entry.spec === 'newest') candidates = [...versions].reverse();
		else if (entry.spec.startsWith('latest-of:'))
			candidates = versions
				.filter((version) => version.startsWith(entry.spec.slice('latest-of:'.length)))
				.reverse();
		else candidates = versions.includes(entry.spec) ? [entry.spec] : [];
		if (candidates.length === 0)
			throw new Error(
				`matrix entry ${entry.label}: no n8n release matches '${entry.spec}' on the registry`,
			);
		const [version, ...rest] = candidates;
		resolved.push({
			label: entry.label,
			version,
			nodeVersion: await nodeVersionFor(version),
			fallbacks: entry.spec === 'newest' ? rest.slice(0, 3) : [],
		});
	}
	return resolved;
}
