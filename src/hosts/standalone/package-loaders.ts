import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { DirectoryLoader } from 'n8n-core';
// The loaders alone, not n8n-core's index (its execution engine loads when a node runs).
import { LazyPackageDirectoryLoader } from 'n8n-core/dist/nodes-loader/lazy-package-directory-loader';
import { PackageDirectoryLoader } from 'n8n-core/dist/nodes-loader/package-directory-loader';
import { routeN8nLogsToStderr } from './n8n-logs-to-stderr';

/** Where the host looks for n8n node packages. */
export interface PackageLoaderOptions {
	/** Extra package roots (folders holding a package.json with an `n8n` section). */
	packageDirs?: string[];
	/**
	 * `node_modules` folders scanned for `n8n-nodes-*` and `@scope/n8n-nodes-*` packages
	 * (n8n's own naming rule). Default: the folder that holds the installed n8n-nodes-base,
	 * and `./node_modules` of the working directory.
	 */
	nodeModulesDirs?: string[];
}

/**
 * Lazy loader that reads only `dist/known/*.json` (the class index, ~130 KB for
 * n8n-nodes-base) and skips the 9 MB `dist/types` descriptions: classes load on demand through
 * n8n-core's `getNode`, and the host only needs the classes of the nodes it runs.
 */
class KnownFilesPackageLoader extends LazyPackageDirectoryLoader {
	override async loadAll(): Promise<void> {
		this.known.nodes = JSON.parse(
			readFileSync(join(this.directory, 'dist/known/nodes.json'), 'utf8'),
		);
		this.known.credentials = JSON.parse(
			readFileSync(join(this.directory, 'dist/known/credentials.json'), 'utf8'),
		);
		this.isLazyLoaded = true;
	}
}

interface PackageJson {
	name?: string;
	n8n?: { nodes?: unknown; credentials?: unknown };
}

function readPackageJson(directory: string): PackageJson | undefined {
	const file = join(directory, 'package.json');
	if (!existsSync(file)) return undefined;
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
	} catch {
		return undefined;
	}
}

/** {@link ownPackageDir}'s answer once found (`null`: not looked for yet). */
let ownPackageDirFound: string | undefined | null = null;

/**
 * This package's own root when it is built (its `n8n` section points at `dist/`), so the
 * host can run the Agent Orchestrator from a checkout too; installed, it is found in
 * `node_modules` like any other `n8n-nodes-*` package.
 */
function ownPackageDir(): string | undefined {
	// Found once per process: every host creation asks, and the answer cannot change.
	if (ownPackageDirFound === null) {
		ownPackageDirFound = undefined;
		for (
			let directory = __dirname;
			directory !== dirname(directory);
			directory = dirname(directory)
		) {
			if (readPackageJson(directory)?.name !== 'n8n-nodes-toolbridge') continue;
			if (existsSync(join(directory, 'dist', 'nodes'))) ownPackageDirFound = directory;
			break;
		}
	}
	return ownPackageDirFound;
}

function defaultNodeModulesDirs(): string[] {
	const dirs: string[] = [];
	try {
		// .../node_modules/n8n-nodes-base/package.json → .../node_modules
		dirs.push(dirname(dirname(require.resolve('n8n-nodes-base/package.json'))));
	} catch {
		// n8n-nodes-base is an optional peer: without it only extra packages load.
	}
	dirs.push(resolve('node_modules'));
	return dirs;
}

function packagesIn(nodeModulesDir: string): string[] {
	if (!existsSync(nodeModulesDir)) return [];
	const found: string[] = [];
	for (const entry of readdirSync(nodeModulesDir)) {
		if (entry.startsWith('n8n-nodes-')) found.push(join(nodeModulesDir, entry));
		else if (entry.startsWith('@')) {
			const scopeDir = join(nodeModulesDir, entry);
			for (const scoped of readdirSync(scopeDir)) {
				if (scoped.startsWith('n8n-nodes-')) found.push(join(scopeDir, scoped));
			}
		}
	}
	return found;
}

/**
 * Finds the installed n8n node packages and prepares one n8n-core loader per package, keyed
 * by package name. Packages with `dist/known` index files load lazily (no class is
 * required until a node runs); others (small community packages) load eagerly through
 * n8n-core's `PackageDirectoryLoader`. A package name seen twice keeps its first location.
 *
 * @throws Error from n8n-core when a package's declared node file cannot be loaded.
 */
export async function loadNodePackages(
	options: PackageLoaderOptions = {},
): Promise<Map<string, DirectoryLoader>> {
	// The loaders log through n8n's logger: on stderr, never the caller's stdout.
	routeN8nLogsToStderr();
	const own = ownPackageDir();
	const candidates = [
		...(options.packageDirs ?? []).map((directory) => resolve(directory)),
		...(options.nodeModulesDirs ?? defaultNodeModulesDirs()).flatMap(packagesIn),
		...(own ? [own] : []),
	];
	const loaders = new Map<string, DirectoryLoader>();
	for (const directory of candidates) {
		const packageJson = readPackageJson(directory);
		if (!packageJson?.name || !packageJson.n8n || loaders.has(packageJson.name)) continue;
		const hasKnownFiles = existsSync(join(directory, 'dist/known/nodes.json'));
		const loader = hasKnownFiles
			? new KnownFilesPackageLoader(directory)
			: new PackageDirectoryLoader(directory);
		await loader.loadAll();
		loaders.set(packageJson.name, loader);
	}
	return loaders;
}
