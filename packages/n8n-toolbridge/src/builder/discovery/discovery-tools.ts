import type { AgentTool, JsonSchema, ToolObservation } from 'n8n-nodes-toolbridge';
import type { NodeCatalog } from '../catalog/node-catalog';
import { getNodes, GET_NODES_MAX_IDS, type NodeTypeRequest } from './get-nodes';
import { searchNodes, SEARCH_LIMITS } from './search-nodes';

/** The arguments schema of `search_nodes`. */
export const searchNodesSchema: JsonSchema = {
	type: 'object',
	properties: {
		queries: {
			type: 'array',
			items: { type: 'string' },
			minItems: 1,
			maxItems: SEARCH_LIMITS.queries,
			description:
				'Several searches at once: service names ("slack", "google sheets"), triggers ("schedule", "webhook", "chat trigger"), actions ("send email", "hash"), AI pieces ("ai agent", "openrouter chat model", "memory").',
		},
	},
	required: ['queries'],
	additionalProperties: false,
};

/** The arguments schema of `get_nodes`. */
export const getNodesSchema: JsonSchema = {
	type: 'object',
	properties: {
		nodeIds: {
			type: 'array',
			minItems: 1,
			maxItems: GET_NODES_MAX_IDS,
			description:
				'Node ids from search_nodes, each a string ("n8n-nodes-base.set") or an object with its discriminators ({ "nodeId": "n8n-nodes-base.slack", "resource": "message", "operation": "post" }, { "nodeId": "n8n-nodes-base.code", "mode": "runOnceForAllItems" }); "version" picks another version.',
			items: {
				anyOf: [
					{ type: 'string' },
					{
						type: 'object',
						properties: {
							nodeId: { type: 'string' },
							version: { type: ['number', 'string'] },
							resource: { type: 'string' },
							operation: { type: 'string' },
							mode: { type: 'string' },
						},
						required: ['nodeId'],
					},
				],
			},
		},
	},
	required: ['nodeIds'],
	additionalProperties: false,
};

/** Descriptions the model (or an MCP client) reads. */
export const SEARCH_NODES_DESCRIPTION =
	'Search the n8n nodes installed here (n8n-nodes-base, n8n LangChain nodes, community packages) with several queries at once. Returns node ids with their version, kind (trigger, sub-node, tool variant) and discriminators (resource/operation or mode) to pass to get_nodes.';
export const GET_NODES_DESCRIPTION =
	"Get the TypeScript type definitions of nodes' parameters (only those that apply for the given resource/operation or mode), their credentials and how to write them with the workflow SDK, generated from the real node descriptions. Call it for every node before using it.";

/** The queries of a `search_nodes` call. @throws Error naming what is wrong with the arguments. */
export function readQueries(args: Record<string, unknown>): string[] {
	const value = typeof args.queries === 'string' ? [args.queries] : args.queries;
	if (
		!Array.isArray(value) ||
		value.length === 0 ||
		!value.every((query) => typeof query === 'string')
	)
		throw new Error(
			'"queries" must be a non-empty array of strings, e.g. { "queries": ["slack", "ai agent"] }.',
		);
	return value as string[];
}

/** The node requests of a `get_nodes` call. @throws Error naming what is wrong with the arguments. */
export function readNodeRequests(args: Record<string, unknown>): NodeTypeRequest[] {
	const value = typeof args.nodeIds === 'string' ? [args.nodeIds] : args.nodeIds;
	if (!Array.isArray(value) || value.length === 0)
		throw new Error(
			'"nodeIds" must be a non-empty array, e.g. { "nodeIds": ["n8n-nodes-base.set"] }.',
		);
	return value.map((item, index) => {
		if (typeof item === 'string') return { nodeId: item };
		if (
			item &&
			typeof item === 'object' &&
			typeof (item as { nodeId?: unknown }).nodeId === 'string'
		) {
			const request: NodeTypeRequest = { nodeId: (item as { nodeId: string }).nodeId };
			for (const [key, entry] of Object.entries(item as Record<string, unknown>))
				if (key !== 'nodeId' && (typeof entry === 'string' || typeof entry === 'number'))
					request[key] = entry;
			return request;
		}
		throw new Error(`nodeIds[${index}] must be a node id string or an object with "nodeId".`);
	});
}

/** What the discovery tools report while a build runs. */
export interface DiscoveryListener {
	onSearch?: (queries: string[]) => void;
	onLookup?: (nodeIds: string[]) => void;
}

/**
 * `search_nodes` and `get_nodes` as tools of the agent loop, over one catalog. Bad arguments
 * answer with an error observation the model can correct.
 */
export function discoveryTools(
	catalog: NodeCatalog,
	listener: DiscoveryListener = {},
): AgentTool[] {
	const answer = (run: () => string): ToolObservation => {
		try {
			return { content: run(), isError: false };
		} catch (error) {
			return { content: `Error: ${(error as Error).message}`, isError: true };
		}
	};
	return [
		{
			name: 'search_nodes',
			description: SEARCH_NODES_DESCRIPTION,
			parameters: searchNodesSchema,
			invoke: async (args) =>
				answer(() => {
					const queries = readQueries(args);
					listener.onSearch?.(queries);
					return searchNodes(catalog, queries);
				}),
		},
		{
			name: 'get_nodes',
			description: GET_NODES_DESCRIPTION,
			parameters: getNodesSchema,
			invoke: async (args) =>
				answer(() => {
					const requests = readNodeRequests(args);
					listener.onLookup?.(requests.map(describeRequest));
					return getNodes(catalog, requests);
				}),
		},
	];
}

/** A request as one short label, e.g. `n8n-nodes-base.slack (message/post)`. */
export function describeRequest(request: NodeTypeRequest): string {
	const discriminators = Object.entries(request)
		.filter(([key, value]) => key !== 'nodeId' && value !== undefined)
		.map(([, value]) => String(value));
	return discriminators.length ? `${request.nodeId} (${discriminators.join('/')})` : request.nodeId;
}
