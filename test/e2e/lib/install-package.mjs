// @ts-check
/**
 * Install this repo's package into an n8n user folder exactly as n8n's
 * `CommunityPackagesService` installs a community package:
 *
 *   npm pack → extract to <user>/.n8n/nodes/node_modules/<name> → delete dev/peer/optional
 *   deps from its package.json → npm install --audit=false --fund=false --bin-links=false
 *   --install-strategy=shallow --ignore-scripts=true --package-lock=false
 *
 * then checks that none of n8n's shared libraries got a second copy inside it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runChecked } from './run-command.mjs';

/**
 * Libraries that must resolve to n8n's own copy (instanceof checks, DI singletons).
 * A copy of any of them inside our package breaks n8n silently (see n8n-facts.md).
 */
export const MUST_NOT_BUNDLE = [
	'zod',
	'@langchain/core',
	'n8n-workflow',
	'n8n-core',
	'n8n-nodes-base',
	'@n8n/di',
	'@n8n/config',
];

/**
 * Every `node_modules/<name>` (scoped or not) below `dir`, recursively.
 * @param {string} dir a package directory
 * @returns {Array<{ name: string, path: string }>}
 */
export function listInstalledModules(dir) {
	/** @type {Array<{ name: string, path: string }>} */
	const found = [];
	const walk = (/** @type {string} */ packageDir) => {
		const modules = join(packageDir, 'node_modules');
		if (!existsSync(modules)) return;
		for (const entry of readdirSync(modules, { withFileTypes: true })) {
			if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
			if (entry.name.startsWith('@')) {
				for (const scoped of readdirSync(join(modules, entry.name), { withFileTypes: true })) {
					if (!scoped.isDirectory()) continue;
					const path = join(modules, entry.name, scoped.name);
					found.push({ name: `${entry.name}/${scoped.name}`, path });
					walk(path);
				}
			} else {
				const path = join(modules, entry.name);
				found.push({ name: entry.name, path });
				walk(path);
			}
		}
	};
	walk(dir);
	return found;
}

/**
 * Install the packed n8n package (lib/pack-package.mjs) into `nodesDir`
 * (`<N8N_USER_FOLDER>/.n8n/nodes`).
 * @param {{ repoDir: string, nodesDir: string, pathWithNode: string, nodeDir: string, logPath: string, tarball: string }} options
 * @returns {Promise<{ name: string, version: string, packageDir: string, tarball: string, dependencies: string[] }>}
 * @throws {Error} when a step fails or a forbidden duplicate landed
 */
export async function installPackageLikeN8n(options) {
	const { repoDir, nodesDir, logPath, tarball } = options;
	const env = {
		...process.env,
		PATH: options.pathWithNode,
		npm_config_nodedir: options.nodeDir,
		npm_config_update_notifier: 'false',
	};
	const manifest = JSON.parse(readFileSync(join(repoDir, 'package.json'), 'utf8'));
	const name = manifest.name;
	if (!name.startsWith('n8n-nodes-'))
		throw new Error(`n8n only installs packages named n8n-nodes-*: ${name}`);

	mkdirSync(join(nodesDir, 'node_modules'), { recursive: true });
	const packageDir = join(nodesDir, 'node_modules', name);
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	await runChecked('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], { logPath });

	const installedManifestPath = join(packageDir, 'package.json');
	const installed = JSON.parse(readFileSync(installedManifestPath, 'utf8'));
	delete installed.devDependencies;
	delete installed.peerDependencies;
	delete installed.optionalDependencies;
	writeFileSync(installedManifestPath, JSON.stringify(installed, null, 2));

	await runChecked(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
		],
		{ cwd: packageDir, env, logPath, timeoutMs: 10 * 60_000 },
	);

	// As n8n's updatePackageJsonDependency: .n8n/nodes/package.json lists the package.
	const nodesManifestPath = join(nodesDir, 'package.json');
	const nodesManifest = existsSync(nodesManifestPath)
		? JSON.parse(readFileSync(nodesManifestPath, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	nodesManifest.dependencies = { ...nodesManifest.dependencies, [name]: installed.version };
	writeFileSync(nodesManifestPath, JSON.stringify(nodesManifest, null, 2));

	const modules = listInstalledModules(packageDir);
	const duplicates = modules.filter((module) => MUST_NOT_BUNDLE.includes(module.name));
	if (duplicates.length > 0) {
		throw new Error(
			`n8n's shared libraries got a second copy inside ${name} (n8n would silently misread its tool schemas):\n` +
				duplicates.map((module) => `  ${module.name} at ${module.path}`).join('\n'),
		);
	}
	const dependencies = Object.keys(installed.dependencies ?? {});
	const installedNames = new Set(modules.map((module) => module.name));
	const missing = dependencies.filter((dependency) => !installedNames.has(dependency));
	if (missing.length > 0)
		throw new Error(
			`production dependencies not installed into ${packageDir}: ${missing.join(', ')}`,
		);
	return { name, version: installed.version, packageDir, tarball, dependencies };
}
