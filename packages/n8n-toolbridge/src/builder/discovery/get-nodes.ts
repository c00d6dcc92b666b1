import type { INodeTypeDescription } from 'n8n-workflow';
import {
	generateDiscriminatorFile,
	generateSingleVersionTypeFile,
	getPropertiesForCombination,
	type DiscriminatorCombination,
} from '@n8n/workflow-sdk/dist/generate-types/generate-types';
import type { CatalogNodeType, NodeCatalog } from '../catalog/node-catalog';
import {
	asSdkDescription,
	discriminatorCombinations,
	discriminatorSummary,
	versionedDescription,
} from './node-discriminators';
import { aiOutputsOf, searchNodes } from './search-nodes';

/** One node asked of `get_nodes`: its id, and the discriminators that pick its parameters. */
export interface NodeTypeRequest {
	nodeId: string;
	version?: number | string;
	resource?: string;
	operation?: string;
	mode?: string;
	[discriminator: string]: string | number | undefined;
}

/** At most this many characters per `get_nodes` answer; nodes past it are named, not shown. */
export const GET_NODES_MAX_CHARS = 40_000;
/** At most this many nodes per call. */
export const GET_NODES_MAX_IDS = 12;

/** The SDK factory a node is written with, by the `ai_*` connection it supplies. */
const FACTORY_BY_OUTPUT: Record<string, string> = {
	ai_languageModel: 'languageModel',
	ai_memory: 'memory',
	ai_tool: 'tool',
	ai_outputParser: 'outputParser',
	ai_embedding: 'embeddings',
	ai_vectorStore: 'vectorStore',
	ai_retriever: 'retriever',
	ai_document: 'documentLoader',
	ai_textSplitter: 'textSplitter',
	ai_reranker: 'reranker',
};

/**
 * The type text of one node: a header saying how to write it (which SDK factory, its
 * connections, credentials, whether it loads here) and the TypeScript definition of exactly
 * the parameters that apply — generated from its real description by the SDK's own generator
 * (the same code that produced n8n-nodes-base's `dist/node-definitions`), with resource /
 * operation or mode resolved.
 *
 * @returns `{ text }`, or `{ error }` telling the model what to ask instead (unknown id, unknown
 *   version, missing or unknown discriminators with the choices).
 */
export function nodeTypeText(
	catalog: NodeCatalog,
	request: NodeTypeRequest,
): { text: string } | { error: string } {
	const node = catalog.find(request.nodeId);
	if (!node) return { error: unknownNode(catalog, request.nodeId) };
	const version = request.version === undefined ? node.defaultVersion : Number(request.version);
	if (!node.versions.includes(version))
		return {
			error: `${request.nodeId} has no version ${String(request.version)}; versions: ${node.versions.join(', ')} (default ${node.defaultVersion}).`,
		};
	const description = catalog.describe(node.type, version) as INodeTypeDescription;
	const combinations = discriminatorCombinations(description, version);
	const header = headerLines(node, description, version);
	if (combinations.length === 0)
		return {
			text: `${header}\n\`\`\`typescript\n${generateSingleVersionTypeFile(asSdkDescription(description), version).trim()}\n\`\`\``,
		};
	const combination = matchCombination(combinations, request);
	if (!combination)
		return {
			error: `${request.nodeId} v${version} needs its discriminators to show its parameters${givenDiscriminators(request)}. Choose from ${discriminatorSummary(combinations) ?? '(none)'} and ask again, e.g. { nodeId: "${request.nodeId}", ${exampleArguments(combinations[0])} }.`,
		};
	const versioned = versionedDescription(description, version);
	const text = generateDiscriminatorFile(
		asSdkDescription(description),
		version,
		combination,
		getPropertiesForCombination(versioned, combination),
		undefined,
		0,
	);
	return { text: `${header}\n\`\`\`typescript\n${text.trim()}\n\`\`\`` };
}

/**
 * `get_nodes`: the type text of several nodes at once, in order, within
 * {@link GET_NODES_MAX_CHARS}; errors are listed after the definitions.
 */
export function getNodes(catalog: NodeCatalog, requests: readonly NodeTypeRequest[]): string {
	const parts: string[] = [];
	const errors: string[] = [];
	const skipped: string[] = [];
	let length = 0;
	for (const [index, request] of requests.entries()) {
		if (index >= GET_NODES_MAX_IDS) {
			skipped.push(request.nodeId);
			continue;
		}
		const answer = nodeTypeText(catalog, request);
		if ('error' in answer) {
			errors.push(`- ${answer.error}`);
			continue;
		}
		if (length + answer.text.length > GET_NODES_MAX_CHARS && parts.length > 0) {
			skipped.push(request.nodeId);
			continue;
		}
		parts.push(answer.text);
		length += answer.text.length;
	}
	if (errors.length > 0) parts.push(`# Errors\n${errors.join('\n')}`);
	if (skipped.length > 0)
		parts.push(
			`Not shown (the answer would be too long): ${skipped.join(', ')}. Ask for them in another get_nodes call.`,
		);
	return parts.join('\n\n');
}

function headerLines(
	node: CatalogNodeType,
	description: INodeTypeDescription,
	version: number,
): string {
	const aiOutput = aiOutputsOf(description)[0];
	const isTrigger = description.group?.includes('trigger');
	const factory = aiOutput
		? (FACTORY_BY_OUTPUT[aiOutput] ?? 'node')
		: isTrigger
			? 'trigger'
			: 'node';
	const lines = [
		`## ${node.type} v${version} — "${description.displayName}"`,
		`Write it as ${factory}({ type: '${node.type}', version: ${version}, config: { name, parameters${description.credentials?.length ? ', credentials' : ''} } })${aiOutput ? ` and put it in its parent's subnodes (${aiOutput})` : ''}.`,
	];
	if (node.toolVariantOf)
		lines.push(
			`Tool variant of ${node.toolVariantOf}: fill what the agent's model decides with fromAi('key', 'description', 'string' | 'number' | 'boolean' | 'json'); set toolDescription.`,
		);
	const credentials = (description.credentials ?? []).map((credential) => credential.name);
	if (credentials.length > 0)
		lines.push(
			`Credentials (one, by the authentication chosen): ${credentials.join(', ')} — as credentials: { <name>: newCredential('Display Name') }.`,
		);
	if (!node.loadable)
		lines.push(
			`Note: ${node.packageName} is not installed here, so this node is checked by its description only.`,
		);
	return lines.join('\n');
}

function matchCombination(
	combinations: DiscriminatorCombination[],
	request: NodeTypeRequest,
): DiscriminatorCombination | undefined {
	return combinations.find((combination) =>
		Object.entries(combination).every(
			([key, value]) => value === undefined || String(request[key] ?? '') === value,
		),
	);
}

function givenDiscriminators(request: NodeTypeRequest): string {
	const given = Object.entries(request).filter(
		([key, value]) => key !== 'nodeId' && key !== 'version' && value !== undefined,
	);
	return given.length === 0
		? ''
		: ` (${given.map(([key, value]) => `${key} "${String(value)}"`).join(', ')} is not one of them)`;
}

function exampleArguments(combination: DiscriminatorCombination): string {
	return Object.entries(combination)
		.filter(([, value]) => value !== undefined)
		.map(([key, value]) => `${key}: "${value}"`)
		.join(', ');
}

function unknownNode(catalog: NodeCatalog, nodeId: string): string {
	const suggestions = suggestNodeIds(catalog, nodeId);
	return `Unknown node id "${nodeId}".${suggestions.length ? ` Did you mean ${suggestions.join(', ')}?` : ''} Use search_nodes to find node ids.`;
}

/** Up to four known node ids close to an unknown one: by spelling (a `…Tool` by its base node), then by search. */
export function suggestNodeIds(catalog: NodeCatalog, nodeId: string): string[] {
	const asTool = /Tool$/.test(nodeId);
	const wanted = shortName(nodeId).replace(/Tool$/, '').toLowerCase();
	const close = catalog.nodeTypes
		.map((entry) => ({
			type: entry.type,
			distance: editDistance(shortName(entry.type).toLowerCase(), wanted),
		}))
		.filter((candidate) => candidate.distance <= Math.max(2, Math.floor(wanted.length / 4)))
		.sort((a, b) => a.distance - b.distance || a.type.localeCompare(b.type))
		.map((candidate) =>
			asTool && catalog.find(`${candidate.type}Tool`) ? `${candidate.type}Tool` : candidate.type,
		);
	const found = searchNodes(catalog, [wanted], 3)
		.split('\n')
		.filter((line) => line.startsWith('- '))
		.map((line) => line.slice(2).split(' ')[0]);
	return [...new Set([...close, ...found])].slice(0, 4);
}

function shortName(type: string): string {
	return type.slice(type.lastIndexOf('.') + 1);
}

/** Levenshtein distance (small strings: node names). */
function editDistance(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++)
			current[j] = Math.min(
				previous[j] + 1,
				current[j - 1] + 1,
				previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
			);
		previous = current;
	}
	return previous[b.length];
}
