// @ts-check
/**
 * What an installed n8n offers, read from its own packages rather than assumed per version:
 *
 * - node type versions: the highest version of each node the scenarios use, from the node
 *   descriptions n8n-nodes-base and @n8n/n8n-nodes-langchain ship (`dist/types/nodes.json`,
 *   one entry per versioned description, names without the package prefix);
 * - engine features, from n8n-core's code: engine requests (`requests-response.js`, n8n-core
 *   1.112.1+), `metadata.sourceNodeName` on connected tools (`extendResponseMetadata` in
 *   `get-input-connection-data.js`, n8n-core 2.6.2+) and human-review gates
 *   (`gatedToolNodeName`, the same file, n8n-core 2.6.2+);
 * - the exact versions of the libraries our package resolves inside n8n.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @typedef {object} N8nProfile
 * @property {string} n8n n8n's version
 * @property {Record<string, string>} packages versions of n8n-core, n8n-workflow, @langchain/core, n8n-nodes-base, @n8n/n8n-nodes-langchain
 * @property {{ crypto: number, manualTrigger: number, webhook: number, emailSend: number, agent: number, lmChatOpenRouter: number }} nodes
 *   highest typeVersion of each node the scenarios build
 * @property {{ engineRequests: boolean, coreTagsSourceNode: boolean, humanReview: boolean }} features
 */

/**
 * The directory of a package as n8n resolves it (nested under n8n first, then hoisted).
 * @param {string} n8nDir the npm prefix n8n is installed into
 * @param {string} name
 * @returns {string}
 * @throws {Error} when neither exists
 */
export function packageDirOf(n8nDir, name) {
	for (const candidate of [
		join(n8nDir, 'node_modules', 'n8n', 'node_modules', name),
		join(n8nDir, 'node_modules', name),
	]) {
		if (existsSync(join(candidate, 'package.json'))) return candidate;
	}
	throw new Error(`package ${name} not found in the n8n install at ${n8nDir}`);
}

/**
 * The highest version each node name has in a `dist/types/nodes.json`.
 * @param {string} file
 * @returns {Map<string, number>}
 */
function highestVersions(file) {
	/** @type {Array<{ name: string, version: number | number[] }>} */
	const descriptions = JSON.parse(readFileSync(file, 'utf8'));
	const result = new Map();
	for (const description of descriptions) {
		const versions = Array.isArray(description.version)
			? description.version
			: [description.version];
		const name = description.name.includes('.')
			? description.name.slice(description.name.lastIndexOf('.') + 1)
			: description.name;
		result.set(name, Math.max(result.get(name) ?? 0, ...versions));
	}
	return result;
}

/**
 * Read the profile of the n8n installed at `n8nDir`.
 * @param {string} n8nDir
 * @returns {N8nProfile}
 * @throws {Error} when a package or a node the scenarios need is missing
 */
export function readN8nProfile(n8nDir) {
	const version = (/** @type {string} */ name) =>
		JSON.parse(readFileSync(join(packageDirOf(n8nDir, name), 'package.json'), 'utf8')).version;
	const base = highestVersions(
		join(packageDirOf(n8nDir, 'n8n-nodes-base'), 'dist', 'types', 'nodes.json'),
	);
	const langchain = highestVersions(
		join(packageDirOf(n8nDir, '@n8n/n8n-nodes-langchain'), 'dist', 'types', 'nodes.json'),
	);
	const pick = (/** @type {Map<string, number>} */ list, /** @type {string} */ name) => {
		const found = list.get(name);
		if (found === undefined) throw new Error(`this n8n has no '${name}' node`);
		return found;
	};
	const core = packageDirOf(n8nDir, 'n8n-core');
	const connectionData = join(
		core,
		'dist',
		'execution-engine',
		'node-execution-context',
		'utils',
		'get-input-connection-data.js',
	);
	const connectionDataText = existsSync(connectionData) ? readFileSync(connectionData, 'utf8') : '';
	/** @type {Record<string, string>} */
	const packages = {};
	for (const name of [
		'n8n-core',
		'n8n-workflow',
		'@langchain/core',
		'n8n-nodes-base',
		'@n8n/n8n-nodes-langchain',
	]) {
		try {
			packages[name] = version(name);
		} catch {
			packages[name] = 'absent';
		}
	}
	return {
		n8n: version('n8n'),
		packages,
		nodes: {
			crypto: pick(base, 'crypto'),
			manualTrigger: pick(base, 'manualTrigger'),
			webhook: pick(base, 'webhook'),
			emailSend: pick(base, 'emailSend'),
			agent: pick(langchain, 'agent'),
			lmChatOpenRouter: pick(langchain, 'lmChatOpenRouter'),
		},
		features: {
			engineRequests: existsSync(join(core, 'dist', 'execution-engine', 'requests-response.js')),
			coreTagsSourceNode: /metadata\.sourceNodeName\s*=/.test(connectionDataText),
			humanReview: connectionDataText.includes('gatedToolNodeName'),
		},
	};
}

/**
 * One line describing a profile, for the report.
 * @param {N8nProfile} profile
 * @returns {string}
 */
export function describeProfile(profile) {
	const { nodes, features, packages } = profile;
	return (
		`n8n-core ${packages['n8n-core']}, n8n-workflow ${packages['n8n-workflow']}, @langchain/core ${packages['@langchain/core']}; ` +
		`AI Agent v${nodes.agent}, OpenRouter model v${nodes.lmChatOpenRouter}, Crypto v${nodes.crypto}, Email Send v${nodes.emailSend}; ` +
		`engine requests: ${features.engineRequests ? 'yes' : 'no'}, n8n-core tags tools with sourceNodeName: ${features.coreTagsSourceNode ? 'yes' : 'no'}, human review gates: ${features.humanReview ? 'yes' : 'no'}`
	);
}
