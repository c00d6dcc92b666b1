import {
	LEGACY_PROTOCOL_VERSIONS,
	MCP_CACHE_HINTS,
	MCP_SERVER_CAPABILITIES,
	MODERN_PROTOCOL_VERSIONS,
	type McpServerDescription,
} from './mcp-description';
import type { ListedTool } from './listed-tool';

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** A JSON-RPC message as it arrived (parsed, unchecked). */
interface IncomingMessage {
	jsonrpc?: unknown;
	id?: unknown;
	method?: unknown;
	params?: { protocolVersion?: unknown; _meta?: Record<string, unknown> };
}

/**
 * The answer to a connection's opening request, built from the description alone — the same
 * answer the SDK gives (a test compares them): a `server/discover` that claims a 2026
 * revision, or an `initialize` without a 2026 claim (its requested revision when supported,
 * else the newest). Anything else: `undefined`, and the SDK answers.
 */
export function openingAnswer(
	message: unknown,
	description: McpServerDescription,
): Record<string, unknown> | undefined {
	if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
	const { jsonrpc, id, method, params } = message as IncomingMessage;
	if (jsonrpc !== '2.0' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
	const serverInfo = { name: description.name, version: description.version };
	const claimed = params?._meta?.[PROTOCOL_VERSION_KEY];
	const instructions =
		description.instructions === undefined ? {} : { instructions: description.instructions };
	if (method === 'server/discover' && MODERN_PROTOCOL_VERSIONS.includes(claimed as string)) {
		return {
			result: {
				supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
				capabilities: MCP_SERVER_CAPABILITIES,
				...instructions,
				resultType: 'complete',
				...MCP_CACHE_HINTS['server/discover'],
				_meta: { [SERVER_INFO_KEY]: serverInfo },
			},
			jsonrpc: '2.0',
			id,
		};
	}
	if (method === 'initialize' && claimed === undefined) {
		const requested = params?.protocolVersion;
		return {
			result: {
				protocolVersion: LEGACY_PROTOCOL_VERSIONS.includes(requested as string)
					? requested
					: LEGACY_PROTOCOL_VERSIONS[0],
				capabilities: MCP_SERVER_CAPABILITIES,
				serverInfo,
				...instructions,
			},
			jsonrpc: '2.0',
			id,
		};
	}
	return undefined;
}

/** The protocol generation an opening answered by {@link openingAnswer} pinned. */
export function openingEra(message: unknown): 'legacy' | 'modern' {
	return (message as IncomingMessage).method === 'server/discover' ? 'modern' : 'legacy';
}

/**
 * The answer to a `tools/list` request on a connection whose opening was answered by hand,
 * once the tools are loaded and before the SDK is: the same answer the SDK gives (a test
 * compares them) — for 2026-07-28 with its result type, cache hints and server info.
 * Anything but a `tools/list` request: `undefined`, and the SDK answers.
 */
export function toolsListAnswer(
	message: unknown,
	era: 'legacy' | 'modern',
	tools: ListedTool[],
	description: McpServerDescription,
): Record<string, unknown> | undefined {
	if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
	const { jsonrpc, id, method } = message as IncomingMessage;
	if (jsonrpc !== '2.0' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
	if (method !== 'tools/list') return undefined;
	if (era === 'legacy') return { result: { tools }, jsonrpc: '2.0', id };
	const serverInfo = { name: description.name, version: description.version };
	return {
		result: {
			tools,
			resultType: 'complete',
			...MCP_CACHE_HINTS['tools/list'],
			_meta: { [SERVER_INFO_KEY]: serverInfo },
		},
		jsonrpc: '2.0',
		id,
	};
}
