// @ts-check
/**
 * `npm pack` a workspace of this repo once per content: the tarball is kept in the e2e cache
 * under a key made of the files npm packs, so every suite of a CI run (test:install, test:e2e,
 * test:e2e:queue, test:e2e:compat) and `npm run n8n:local` install the very same tarball, and
 * only a changed build packs again. Every n8n instance installs it the way n8n installs a
 * community package (see install-package.mjs).
 *
 *   ${TOOLBRIDGE_E2E_CACHE:-~/.cache/toolbridge-e2e}/packs/<name>-<version>-<hash>/
 *     <name>-<version>.tgz
 *     pack.json             npm pack --json's entry for it, written last
 */
import { createHash } from 'node:crypto';

import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';

import { cacheRoot } from './provision.mjs';
import { runChecked } from './run-command.mjs';

/** Packs of other contents are deleted once they are this old. */
const STALE_PACK_MS = 2 * 24 * 3600_000;

/**
 * @typedef {object} Packed
 * @property {string} tarball the tarball's path
 * @property {string} filename its file name
 * @property {number} entryCount how many files it holds
 * @property {boolean} reused true when an earlier pack of the same content was found
 */

/**
 * Every file of `dir`, recursively (sorted, so the key does not depend on the file system).
 * @param {string} dir
 * @returns {string[]}
 */
function filesBelow(dir) {
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile())
		.map((entry) => join(entry.parentPath, entry.name))
		.sort();
}

/**
 * The key of what `npm pack` would put in the tarball: package.json, README and LICENSE files,
 * and every file under the manifest's `files` entries, by path and content.
 * @param {string} packageDir
 * @returns {{ name: string, version: string, key: string }}
 * @throws {Error} when the manifest has no `files` list (then the packed set is not known here)
 */
export function packKey(packageDir) {
	const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
	if (!Array.isArray(manifest.files))
		throw new Error(`${packageDir}/package.json has no "files" list`);
	const always = readdirSync(packageDir).filter(
		(name) => name === 'package.json' || /^(README|LICEN[CS]E)/i.test(name),
	);
	const files = [
		...always.map((name) => join(packageDir, name)),
		...manifest.files.flatMap((/** @type {string} */ entry) => {
			const path = join(packageDir, entry);
			if (!existsSync(path)) return [];
			return statSync(path).isDirectory() ? filesBelow(path) : [path];
		}),
	];
	const hash = createHash('sha256');
	for (const file of [...new Set(files)].sort()) {
		hash.update(`${relative(packageDir, file)}\0`);
		hash.update(readFileSync(file));
		hash.update('\0');
	}
	return { name: manifest.name, version: manifest.version, key: hash.digest('hex').slice(0, 16) };
}

/**
 * Delete the packs of `name` other than `keep` that are older than {@link STALE_PACK_MS}.
 * @param {string} packsDir
 * @param {string} name
 * @param {string} keep
 * @returns {void}
 */
function pruneStalePacks(packsDir, name, keep) {
	for (const entry of readdirSync(packsDir)) {
		if (entry === keep || !entry.startsWith(`${name.replace('/', '-')}-`)) continue;
		const path = join(packsDir, entry);
		if (Date.now() - statSync(path).mtimeMs > STALE_PACK_MS)
			rmSync(path, { recursive: true, force: true });
	}
}

/**
 * The tarball of a workspace of this repo: the cached one when the packed files are unchanged,
 * else a fresh `npm pack --ignore-scripts` (written aside, then renamed into place, so two
 * runs packing at once both end up with one complete tarball).
 * @param {{ packageDir: string, logPath?: string }} options `packageDir`: the repo or a workspace of it
 * @returns {Promise<Packed>}
 * @throws {Error} with the log tail when `npm pack` fails
 */
export async function packOnce({ packageDir, logPath }) {
	const { name, version, key } = packKey(packageDir);
	const packsDir = join(cacheRoot(), 'packs');
	const folder = join(packsDir, `${name.replace('/', '-')}-${version}-${key}`);
	const infoPath = join(folder, 'pack.json');
	const found = () => {
		const info = JSON.parse(readFileSync(infoPath, 'utf8'));
		return {
			tarball: join(folder, info.filename),
			filename: info.filename,
			entryCount: info.entryCount,
		};
	};
	if (existsSync(infoPath)) return { ...found(), reused: true };

	mkdirSync(packsDir, { recursive: true });
	const staging = `${folder}.${process.pid}`;
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(staging);
	try {
		const packed = await runChecked(
			'npm',
			['pack', '--json', '--ignore-scripts', `--pack-destination=${staging}`],
			{ cwd: packageDir, logPath },
		);
		const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[')));
		writeFileSync(join(staging, 'pack.json'), JSON.stringify(info, null, '\t'));
		try {
			renameSync(staging, folder);
		} catch (error) {
			// Another run packed the same content first: use that one.
			if (!existsSync(infoPath)) throw error;
		}
	} finally {
		rmSync(staging, { recursive: true, force: true });
	}
	pruneStalePacks(packsDir, name, `${name.replace('/', '-')}-${version}-${key}`);
	return { ...found(), reused: false };
}

/**
 * Build (optional) and pack this repo's n8n package for an e2e run.
 * @param {{ repoDir: string, logDir: string, build: boolean }} options
 *   `logDir`: build.log and pack.log go there
 * @returns {Promise<Packed>}
 * @throws {Error} with the log tail when the build or the pack fails
 */
export async function buildAndPack({ repoDir, logDir, build }) {
	if (build) {
		await runChecked('npm', ['run', 'build'], {
			cwd: repoDir,
			logPath: join(logDir, 'build.log'),
			timeoutMs: 10 * 60_000,
		});
	}
	return packOnce({ packageDir: repoDir, logPath: join(logDir, 'pack.log') });
}
