import { basename, dirname } from 'node:path';
import type { INode } from 'n8n-workflow';
import type { UnavailableTool } from '../../errors/unavailable-tools-error';
import type { StandaloneNodeTypes } from './standalone-node-types';

/** n8n's LangChain node package: an add-on here, installed at the version of n8n-nodes-base. */
export const langChainNodesPackage = '@n8n/n8n-nodes-langchain';

/** npm names a package of node types could be installed by (n8n's own naming rule). */
const installablePackage = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?n8n-nodes-[a-z0-9-._~]+$/;

/**
 * The tool node `tool` as unavailable when a node it needs to run is of a package that is not
 * installed (or not in its package): `nodes` are the tool node and the sub-nodes whose classes
 * its run loads. Every such node is named, with its type and package. Nothing is loaded.
 */
export function findUnavailableNodes(
	tool: INode,
	nodes: readonly INode[],
	nodeTypes: StandaloneNodeTypes,
): Omit<UnavailableTool, 'agentName'> | undefined {
	const missing: Array<{ node: INode; packageName: string; packageMissing: boolean }> = [];
	for (const node of nodes) {
		const { packageName, found } = nodeTypes.locate(node.type);
		if (found === 'package-missing' || found === 'type-missing')
			missing.push({ node, packageName, packageMissing: found === 'package-missing' });
	}
	if (missing.length === 0) return undefined;
	const parts = missing.map(({ node, packageName, packageMissing }) => {
		const who = node.name === tool.name ? 'it is' : `its sub-node "${node.name}" (${node.type}) is`;
		return packageMissing
			? `${who} of package ${packageName}, which is not installed`
			: `${who} not in the installed package ${packageName} (version ${nodeTypes.packageVersion(packageName) ?? 'unknown'})`;
	});
	const first = missing[0];
	return {
		nodeName: tool.name,
		nodeType: tool.type,
		reason: first.packageMissing ? 'PACKAGE_MISSING' : 'NODE_TYPE_NOT_FOUND',
		message: `"${tool.name}" (${tool.type}): ${parts.join('; ')}.`,
		...(first.node.name === tool.name ? {} : { subNodeName: first.node.name }),
		packageName: first.packageName,
	};
}

/**
 * The one command that installs every missing package of `tools`, next to the installed
 * n8n-nodes-base so the host finds them and they share its n8n libraries: n8n's LangChain
 * nodes at n8n-nodes-base's exact version. Undefined when no installable package is missing.
 */
export function installCommandFor(
	tools: readonly UnavailableTool[],
	nodeTypes: StandaloneNodeTypes,
): string | undefined {
	const packages = [
		...new Set(
			tools
				.filter((tool) => tool.reason === 'PACKAGE_MISSING' && tool.packageName)
				.map((tool) => tool.packageName!),
		),
	].filter((name) => installablePackage.test(name));
	if (packages.length === 0) return undefined;
	const baseVersion = nodeTypes.packageVersion('n8n-nodes-base');
	const specs = packages.map((name) =>
		name === langChainNodesPackage && baseVersion ? `${name}@${baseVersion}` : name,
	);
	const baseDirectory = nodeTypes.packageDirectory('n8n-nodes-base');
	// …/node_modules/n8n-nodes-base → the folder whose node_modules holds it (a project, or a global install's package).
	const prefix =
		baseDirectory && basename(dirname(baseDirectory)) === 'node_modules'
			? ` --prefix ${quoted(dirname(dirname(baseDirectory)))}`
			: '';
	return `npm install${prefix} --ignore-scripts ${specs.join(' ')}`;
}

function quoted(path: string): string {
	return /^[\w./-]+$/.test(path) ? path : `"${path.replaceAll('"', '\\"')}"`;
}
