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

/** A JSON-RPC request as it arrived: a 2.0 message with an id (a notification or a response is not one). */
function asRequest(message: unknown): (IncomingMessage & { id: string | number }) | undefined {
	if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
	const { jsonrpc, id } = message as IncomingMessage;
	if (jsonrpc !== '2.0' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
	return message as IncomingMessage & { id: string | number };
}

/**
 * A 2026-07-28 answer to `method`: `result` completed with its result type, the method's cache
 * hints and the server info, as the SDK writes it.
 */
function modernAnswer(
	id: string | number,
	method: keyof typeof MCP_CACHE_HINTS,
	result: Record<string, unknown>,
	description: McpServerDescription,
): Record<string, unknown> {
	const serverInfo = { name: description.name, version: description.version };
	return {
		result: {
			...result,
			resultType: 'complete',
			...MCP_CACHE_HINTS[method],
			_meta: { [SERVER_INFO_KEY]: serverInfo },
		},
		jsonrpc: '2.0',
		id,
	};
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
	const request = asRequest(message);
	if (!request) return undefined;
	const { id, method, params } = request;
	const claimed = params?._meta?.[PROTOCOL_VERSION_KEY];
	const instructions =
		description.instructions === undefined ? {} : { instructions: description.instructions };
	if (method === 'server/discover' && MODERN_PROTOCOL_VERSIONS.includes(claimed as string)) {
		return modernAnswer(
			id,
			'server/discover',
			{
				supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
				capabilities: MCP_SERVER_CAPABILITIES,
				...instructions,
			},
			description,
		);
	}
	if (method === 'initialize' && claimed === undefined) {
		const requested = params?.protocolVersion;
		return {
			result: {
				protocolVersion: LEGACY_PROTOCOL_VERSIONS.includes(requested as string)
					? requested
					: LEGACY_PROTOCOL_VERSIONS[0],
				capabilities: MCP_SERVER_CAPABILITIES,
				serverInfo: { name: description.name, version: description.version },
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
	const request = asRequest(message);
	if (request?.method !== 'tools/list') return undefined;
	if (era === 'legacy') return { result: { tools }, jsonrpc: '2.0', id: request.id };
	return modernAnswer(request.id, 'tools/list', { tools }, description);
}
