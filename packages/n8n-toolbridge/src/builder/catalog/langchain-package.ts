import { execFile } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { extract } from 'tar';
import { NodeDescriptionsError } from './node-descriptions-error';

/** n8n's LangChain node package: the AI Agent, chat models, memory and LangChain tool sub-nodes. */
export const LANGCHAIN_PACKAGE = '@n8n/n8n-nodes-langchain';

/** Where LangChain's descriptions came from. */
export interface LangChainPackage {
	/** A folder holding `package.json`, `dist/types/nodes.json` and `dist/node-definitions`. */
	dir: string;
	version: string;
	/** `installed`: its node classes load too; `cache` / `fetched`: descriptions only. */
	source: 'installed' | 'cache' | 'fetched';
}

/** Options of {@link findLangChainPackage}. */
export interface FindLangChainPackageOptions {
	/** The version to cache or fetch; default: the installed n8n-nodes-base's (n8n ships them together). */
	version?: string;
	/** Package folders given with `--package` (one may be LangChain itself). */
	packageDirs?: string[];
	/** `node_modules` folders to look in; default: the one holding n8n-nodes-base, and `./node_modules`. */
	nodeModulesDirs?: string[];
	/** Default `TOOLBRIDGE_CACHE_DIR`, else `$XDG_CACHE_HOME/toolbridge`, else `~/.cache/toolbridge`. */
	cacheDir?: string;
	/** Fetch the tarball when neither installed nor cached (default true). */
	fetch?: boolean;
	/** Environment for the cache folder and for npm (its registry and proxy settings). */
	env?: NodeJS.ProcessEnv;
	/** One line for the user (stderr in the CLI) when the tarball is fetched. */
	onNotice?: (line: string) => void;
	/** Time limit of the download (ms, default 120 s). */
	fetchTimeoutMs?: number;
}

/** Files kept from the tarball: descriptions, generated type definitions and the license. */
const KEPT =
	/^package\/(package\.json|LICENSE[^/]*|dist\/types\/nodes\.json|dist\/node-definitions\/.*)$/;

/** The cache folder of the builder (descriptions of packages that are not installed). */
export function builderCacheDir(env: NodeJS.ProcessEnv = process.env): string {
	if (env.TOOLBRIDGE_CACHE_DIR) return resolve(env.TOOLBRIDGE_CACHE_DIR);
	const base = env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache');
	return join(base, 'toolbridge');
}

/** The version of the installed n8n-nodes-base. */
export function nodesBaseVersion(): string {
	const file = require.resolve('n8n-nodes-base/package.json');
	return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/**
 * Finds n8n's LangChain node package for its descriptions: installed (a `--package` folder, or
 * `node_modules` where the standalone host looks), else a cached copy of its tarball, else the
 * tarball fetched with `npm pack` (about 1.8 MB, no dependencies) into the cache, keeping only
 * its descriptions, type definitions and license. Installing it (the LangChain add-on) is what
 * lets the host also load its tool sub-nodes; the cached copy only describes them.
 *
 * @throws {NodeDescriptionsError} when it is not installed, not cached, and cannot be fetched
 *   (offline, `fetch: false`, npm missing or failing), saying how to install it.
 */
export async function findLangChainPackage(
	options: FindLangChainPackageOptions = {},
): Promise<LangChainPackage> {
	const installed = findInstalled(options);
	if (installed) return installed;
	const version = options.version ?? nodesBaseVersion();
	const cacheDir = options.cacheDir ?? builderCacheDir(options.env);
	const target = join(cacheDir, `n8n-nodes-langchain-${version}`);
	if (isComplete(target)) return { dir: target, version, source: 'cache' };
	const install = `npm install --ignore-scripts ${LANGCHAIN_PACKAGE}@${version}`;
	if (options.fetch === false)
		throw new NodeDescriptionsError(
			`n8n's LangChain node descriptions (AI Agent, chat models, tool sub-nodes) are needed, and ${LANGCHAIN_PACKAGE} is neither installed nor cached in ${cacheDir}. Install it beside n8n-toolbridge: ${install}`,
		);
	await fetchTarball(version, target, options, install);
	options.onNotice?.(
		`Fetched the node descriptions of ${LANGCHAIN_PACKAGE}@${version} (descriptions only, no code) into ${target}. Its tool sub-nodes load only when the package is installed: ${install}`,
	);
	return { dir: target, version, source: 'fetched' };
}

function findInstalled(options: FindLangChainPackageOptions): LangChainPackage | undefined {
	const candidates = [
		...(options.packageDirs ?? []).map((directory) => resolve(directory)),
		...(options.nodeModulesDirs ?? defaultNodeModulesDirs()).map((directory) =>
			join(directory, LANGCHAIN_PACKAGE),
		),
	];
	for (const dir of candidates) {
		const manifest = readManifest(dir);
		if (manifest?.name !== LANGCHAIN_PACKAGE) continue;
		if (!existsSync(join(dir, 'dist/types/nodes.json'))) continue;
		return { dir, version: manifest.version ?? 'unknown', source: 'installed' };
	}
	return undefined;
}

/** The same folders the standalone host scans for node packages. */
function defaultNodeModulesDirs(): string[] {
	const dirs = [resolve('node_modules')];
	try {
		dirs.unshift(dirname(dirname(require.resolve('n8n-nodes-base/package.json'))));
	} catch {
		// n8n-nodes-base is a dependency of this package; without it only ./node_modules is left.
	}
	return dirs;
}

function readManifest(dir: string): { name?: string; version?: string } | undefined {
	try {
		return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
			name?: string;
			version?: string;
		};
	} catch {
		return undefined;
	}
}

function isComplete(dir: string): boolean {
	return (
		readManifest(dir)?.name === LANGCHAIN_PACKAGE && existsSync(join(dir, 'dist/types/nodes.json'))
	);
}

async function fetchTarball(
	version: string,
	target: string,
	options: FindLangChainPackageOptions,
	install: string,
): Promise<void> {
	mkdirSync(dirname(target), { recursive: true });
	const scratch = mkdtempSync(`${target}.partial-`);
	try {
		await runNpmPack(`${LANGCHAIN_PACKAGE}@${version}`, scratch, options).catch((error) => {
			throw new NodeDescriptionsError(
				`n8n's LangChain node descriptions (AI Agent, chat models, tool sub-nodes) are needed: ${LANGCHAIN_PACKAGE} is not installed, and fetching its tarball (npm pack ${LANGCHAIN_PACKAGE}@${version}) failed: ${(error as Error).message}. Install it beside n8n-toolbridge (${install}), or run once with access to the npm registry (the descriptions are then cached in ${dirname(target)}).`,
				{ cause: error },
			);
		});
		const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz'));
		if (!tarball)
			throw new NodeDescriptionsError(
				`npm pack wrote no tarball for ${LANGCHAIN_PACKAGE}@${version}.`,
			);
		// node-tar refuses absolute paths and `..` entries; only the description files are written.
		await extract({
			file: join(scratch, tarball),
			cwd: scratch,
			filter: (path) => KEPT.test(path.replace(/^\.\//, '')),
		});
		const unpacked = join(scratch, 'package');
		if (!isComplete(unpacked))
			throw new NodeDescriptionsError(
				`The tarball of ${LANGCHAIN_PACKAGE}@${version} holds no dist/types/nodes.json.`,
			);
		// Another process may have finished first: its copy is as good as ours.
		if (!isComplete(target)) {
			rmSync(target, { recursive: true, force: true });
			renameSync(unpacked, target);
		}
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}

function runNpmPack(spec: string, destination: string, options: FindLangChainPackageOptions) {
	return new Promise<void>((resolvePack, reject) => {
		execFile(
			process.platform === 'win32' ? 'npm.cmd' : 'npm',
			['pack', spec, '--pack-destination', destination, '--silent', '--no-fund', '--no-audit'],
			{
				env: options.env ?? process.env,
				timeout: options.fetchTimeoutMs ?? 120_000,
				shell: process.platform === 'win32',
				windowsHide: true,
			},
			(error, _stdout, stderr) => {
				if (!error) return resolvePack();
				const detail = String(stderr).trim().split('\n').filter(Boolean).slice(-2).join(' ');
				reject(new Error(detail || error.message));
			},
		);
	});
}
