import { PACKAGE_VERSION } from '../package-version';

/**
 * What an MCP server says about itself before any tool is loaded: the opening answer
 * (`server/discover`, `initialize`) is built from this alone, by hand on the light stdio path
 * and by the SDK afterwards, so both answer the same. Plain data: this module loads nothing
 * but node built-ins (the light path runs before the SDK and n8n load).
 */
export interface McpServerDescription {
	/** `serverInfo.name`. */
	name: string;
	/** `serverInfo.version`. */
	version: string;
	/** Instructions for the client's model. */
	instructions?: string;
}

/** Protocol revisions served without a handshake (per-request `_meta` envelope, `server/discover`). */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/**
 * Handshake revisions (`initialize`) the SDK negotiates, newest first: its
 * `SUPPORTED_PROTOCOL_VERSIONS` (a test keeps the two equal across SDK upgrades).
 */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = [
	'2025-11-25',
	'2025-06-18',
	'2025-03-26',
	'2024-11-05',
	'2024-10-07',
];

/**
 * The server's capabilities: tools (their list never changes while it runs) and logging (the
 * log lines a call's nodes write, as `notifications/message`; `logging/setLevel`). No
 * resources, prompts or completions: a workflow's nodes offer tools only.
 */
export const MCP_SERVER_CAPABILITIES = { tools: { listChanged: false }, logging: {} } as const;

/**
 * How long a 2026 client may reuse `server/discover` and `tools/list` answers (`ttlMs`,
 * `cacheScope`): the tools change only when the server restarts with another workflow, and
 * every token holder sees the same list.
 */
export const MCP_CACHE_HINTS = {
	'tools/list': { ttlMs: 60_000, cacheScope: 'public' },
	'server/discover': { ttlMs: 60_000, cacheScope: 'public' },
} as const;

/**
 * The description of `toolbridge mcp <workflow>`: named after the workflow (its `name`, else
 * the file), instructions naming the agent when `--agent` chose one.
 */
export function workflowServerDescription(
	workflowName: string | undefined,
	agentName?: string,
): McpServerDescription {
	const name = workflowName?.trim() || 'workflow';
	const agent = agentName === undefined ? '' : ` (agent "${agentName}")`;
	return {
		name: `toolbridge: ${name}`,
		version: PACKAGE_VERSION,
		instructions: `Tools of the n8n workflow "${name}"${agent}; each runs a real n8n node.`,
	};
}

/** What `toolbridge mcp --builder` without a workflow says about itself. */
export function builderServerDescription(): McpServerDescription {
	return {
		name: 'toolbridge: workflow builder',
		version: PACKAGE_VERSION,
		instructions:
			'Build n8n workflows: search_nodes, get_nodes, then validate_workflow your SDK code (or build_workflow).',
	};
}
