import type { INodeTypeDescription } from 'n8n-workflow';
import type { CatalogNodeType, NodeCatalog } from '../catalog/node-catalog';
import { discriminatorCombinations, discriminatorSummary } from './node-discriminators';

/** At most this many queries per call, and results per query. */
export const SEARCH_LIMITS = { queries: 10, resultsPerQuery: 6, queryLength: 100 } as const;

/** A node type prepared for matching (words of its names, aliases, description, categories). */
interface SearchEntry {
	node: CatalogNodeType;
	description: INodeTypeDescription;
	shortName: string;
	nameWords: string[];
	aliasWords: string[];
	otherWords: string[];
}

const words = (text: unknown): string[] =>
	String(text ?? '')
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter(Boolean);

/** The search index of a catalog, built once per catalog. */
const indexes = new WeakMap<NodeCatalog, SearchEntry[]>();

function searchIndex(catalog: NodeCatalog): SearchEntry[] {
	let index = indexes.get(catalog);
	if (index) return index;
	index = [];
	for (const node of catalog.nodeTypes) {
		const description = catalog.describe(node.type);
		if (!description || description.hidden) continue;
		const codex = description.codex ?? {};
		index.push({
			node,
			description,
			shortName: node.type.slice(node.type.lastIndexOf('.') + 1).toLowerCase(),
			nameWords: words(description.displayName),
			aliasWords: (codex.alias ?? []).flatMap(words),
			otherWords: [
				...words(description.description),
				...(codex.categories ?? []).flatMap(words),
				...Object.values(codex.subcategories ?? {})
					.flat()
					.flatMap(words),
			],
		});
	}
	indexes.set(catalog, index);
	return index;
}

function score(entry: SearchEntry, query: string): number {
	const text = query.toLowerCase().trim();
	const queryWords = words(text);
	if (
		entry.node.type.toLowerCase() === text ||
		entry.shortName === text.replace(/\s+/g, '') ||
		entry.description.displayName.toLowerCase() === text
	)
		return 100;
	let total = 0;
	for (const word of queryWords) {
		if (entry.nameWords.includes(word)) total += 10;
		else if (entry.nameWords.some((name) => name.startsWith(word))) total += 6;
		else if (entry.shortName.includes(word)) total += 5;
		if (entry.aliasWords.includes(word)) total += 6;
		if (entry.otherWords.includes(word)) total += 2;
	}
	if (queryWords.length > 1 && queryWords.every((word) => entry.nameWords.includes(word)))
		total += 15;
	return total;
}

/** What kind of node it is, for the model: trigger, sub-node (which connection), tool variant. */
function tags(entry: SearchEntry): string[] {
	const { description, node } = entry;
	const found: string[] = [];
	if (description.group?.includes('trigger')) found.push('trigger');
	const subnodeOutput = aiOutputsOf(description)[0];
	if (subnodeOutput) found.push(`sub-node ${subnodeOutput}`);
	if (description.usableAsTool) found.push(`tool variant: ${node.type}Tool`);
	if (!node.loadable) found.push('described only: its package is not installed');
	return found;
}

/** The `ai_*` outputs of a sub-node; for outputs computed by an expression, the types it names. */
export function aiOutputsOf(description: Pick<INodeTypeDescription, 'outputs'>): string[] {
	const { outputs } = description;
	if (typeof outputs === 'string') return [...new Set(outputs.match(/ai_[a-zA-Z]+/g) ?? [])];
	return (outputs ?? [])
		.map((output): string => (typeof output === 'string' ? output : output.type))
		.filter((type) => typeof type === 'string' && type.startsWith('ai_'));
}

function entryLines(entry: SearchEntry): string[] {
	const { node, description } = entry;
	const label = tags(entry);
	const lines = [
		`- ${node.type} v${node.defaultVersion} "${description.displayName}"${label.length ? ` [${label.join('; ')}]` : ''}: ${oneLine(description.description, 200)}`,
	];
	const discriminators = discriminatorSummary(
		discriminatorCombinations(description, node.defaultVersion),
	);
	if (discriminators) lines.push(`  ${oneLine(discriminators, 600)}`);
	const hint = description.builderHint?.searchHint;
	if (hint) lines.push(`  hint: ${oneLine(hint, 300)}`);
	return lines;
}

function oneLine(text: unknown, max: number): string {
	const flat = String(text ?? '')
		.replace(/\s+/g, ' ')
		.trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Searches the catalog's node types (hidden ones left out) for each query — by type name,
 * display name, alias, description and category — and answers in compact text: per query the
 * best matches with their full type id, default version, kind (trigger, sub-node, tool
 * variant), discriminators (resource/operation or mode) and n8n's builder hint, followed by how
 * to ask `get_nodes` for their parameters.
 */
export function searchNodes(
	catalog: NodeCatalog,
	queries: readonly string[],
	limit: number = SEARCH_LIMITS.resultsPerQuery,
): string {
	const index = searchIndex(catalog);
	const sections = queries.slice(0, SEARCH_LIMITS.queries).map((raw) => {
		const query = raw.slice(0, SEARCH_LIMITS.queryLength);
		const hits = index
			.map((entry) => ({ entry, score: score(entry, query) }))
			.filter((hit) => hit.score > 0)
			.sort((a, b) => b.score - a.score || a.entry.node.type.localeCompare(b.entry.node.type))
			.slice(0, limit);
		const lines = [`## "${query}"`];
		if (hits.length === 0)
			lines.push('No nodes found; try another word (a service name, or what the node does).');
		for (const { entry } of hits) lines.push(...entryLines(entry));
		return lines.join('\n');
	});
	if (queries.length > SEARCH_LIMITS.queries)
		sections.push(`(Only the first ${SEARCH_LIMITS.queries} queries were searched.)`);
	sections.push(
		'Next: call get_nodes for every node you will use, e.g. get_nodes({ nodeIds: ["n8n-nodes-base.set", { nodeId: "n8n-nodes-base.slack", resource: "message", operation: "post" }, { nodeId: "n8n-nodes-base.code", mode: "runOnceForAllItems" }] }). Nodes with resource/operation or mode need them.',
	);
	return sections.join('\n\n');
}
