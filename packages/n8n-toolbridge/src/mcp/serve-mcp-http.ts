import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { ConcurrencyLimit } from '../http/concurrency-limit';
import { HttpError } from '../http/http-error';
import type { ListenAddress } from '../http/listen-address';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from '../http/read-json-body';
import { acquireSlot, checkRequest } from '../http/request-guards';
import { sendJson, startHttpServer, type RunningHttpServer } from '../http/start-http-server';
import type { McpServerFactory } from './create-mcp-server';
import { serveWithFetchHandler } from './node-fetch-adapter';

/** Options of {@link serveMcpHttp}. */
export interface McpHttpOptions {
	address: ListenAddress;
	/** Builds the MCP server instance of one request (see `mcpServerFactory`). */
	factory: McpServerFactory;
	/**
	 * Resolves when the tools are loaded: until then `GET /healthz` answers 503 (a load
	 * balancer keeps traffic away) while protocol requests are answered and tool requests wait.
	 */
	ready?: Promise<unknown>;
	/** Required bearer token; checked in constant time. */
	token?: string;
	/** Browser origins allowed besides loopback ones. */
	allowedOrigins?: readonly string[];
	/** Calls handled at once (one slot per tools/call, one per other request); more get 429 with Retry-After. Default 8. */
	maxConcurrency?: number;
	/** Request body cap in bytes. Default 1 MiB. */
	maxBodyBytes?: number;
	/** Time a client has to send its body (ms). Default 30 s. */
	bodyTimeoutMs?: number;
	/** Out-of-band protocol errors (a line each; never secrets). */
	log?: (line: string) => void;
}

const PATH = '/mcp';
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
/**
 * JSON-RPC's own codes for the refusals that have one: a body that cannot be read as JSON
 * (not JSON, or nested past the depth limit) is a parse error, a batch where the protocol has
 * none an invalid request; the rest (401, 403, 408, 413, 429 …) are -32000, server errors.
 */
const JSON_RPC_CODE_BY_TYPE: Record<string, number> = {
	invalid_json: -32700,
	json_too_deep: -32700,
	batch_not_allowed: -32600,
};
/** The first revision without JSON-RPC batches. */
const FIRST_WITHOUT_BATCHES = '2025-06-18';

/**
 * Serves MCP over Streamable HTTP at `/mcp`, statelessly: every POST is answered by a fresh
 * server instance (the SDK's `createMcpHandler` with `legacy: 'stateless'`), 2026-07-28
 * clients and 2025 clients alike on the same endpoint, with no session and nothing kept
 * between requests — any replica behind a load balancer can answer any request. GET and
 * DELETE (2025 session streams) answer 405.
 *
 * Before the SDK sees a request: the Origin check (403), the bearer token (401), the body
 * read within its size (413), time (408) and nesting depth (400, -32700) bounds, JSON-RPC
 * batches refused where the protocol has none (2025-06-18 and later: 400, -32600), then
 * concurrency slots — one per `tools/call` the body carries (a 2025-03-26 batch of six calls
 * takes six), one for any other request — else 429 + Retry-After. The body is read before a
 * slot is taken, so a client that trickles its body holds no slot. `GET /healthz` answers
 * without authentication: 200 once the tools are loaded, 503 before.
 */
export async function serveMcpHttp(options: McpHttpOptions): Promise<RunningHttpServer> {
	const limit = new ConcurrencyLimit(options.maxConcurrency ?? 8);
	const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
	const log = options.log ?? (() => {});
	const handler = createMcpHandler((context) => options.factory(context), {
		legacy: 'stateless',
		onerror: (error) => log(`protocol: ${error.message}`),
	});
	let state: 'loading' | 'ok' | 'failed' = options.ready ? 'loading' : 'ok';
	options.ready?.then(
		() => (state = 'ok'),
		() => (state = 'failed'),
	);

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const path = new URL(request.url ?? '/', 'http://localhost').pathname;
		if (request.method === 'GET' && path === '/healthz')
			return sendJson(response, state === 'ok' ? 200 : 503, { status: state });
		checkRequest(request, {
			token: options.token,
			allowedOrigins: options.allowedOrigins,
			serverHost: options.address.host,
		});
		if (path !== PATH)
			throw new HttpError(404, `Not found: the MCP endpoint is ${PATH}.`, 'not_found');
		if (request.method !== 'POST')
			return serveWithFetchHandler(handler, request, response, undefined);
		const body = await readJsonBody(request, maxBodyBytes, { timeoutMs: options.bodyTimeoutMs });
		assertBatchAllowed(request, body);
		const release = acquireSlot(limit, Math.max(1, toolCallCount(body)));
		response.once('close', release);
		await serveWithFetchHandler(handler, request, response, body);
	}

	const running = await startHttpServer(options.address, handle, (error) => {
		const refused =
			error instanceof HttpError ? error : new HttpError(500, 'Internal error.', 'internal_error');
		const code = JSON_RPC_CODE_BY_TYPE[refused.type] ?? -32000;
		return {
			status: refused.status,
			body: { jsonrpc: '2.0', error: { code, message: refused.message }, id: null },
			headers: refused.headers,
		};
	});
	const close = running.close;
	return {
		...running,
		close: async () => {
			await handler.close().catch(() => undefined);
			await close();
		},
	};
}

/** How many `tools/call` requests a body carries (a JSON-RPC batch may carry several). */
function toolCallCount(body: unknown): number {
	const messages = Array.isArray(body) ? body : [body];
	return messages.filter(
		(message) =>
			typeof message === 'object' &&
			message !== null &&
			(message as { method?: unknown }).method === 'tools/call' &&
			(message as { id?: unknown }).id !== undefined,
	).length;
}

/**
 * JSON-RPC batches exist only up to MCP 2025-03-26: a batch under a later revision (its
 * `MCP-Protocol-Version` header, or a 2026 `_meta` claim in it) is refused.
 * @throws {HttpError} 400 (JSON-RPC -32600).
 */
function assertBatchAllowed(request: IncomingMessage, body: unknown): void {
	if (!Array.isArray(body)) return;
	const header = request.headers['mcp-protocol-version'];
	const claimed = body
		.map(
			(message) =>
				(message as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta?.[
					PROTOCOL_VERSION_KEY
				],
		)
		.find((version) => typeof version === 'string') as string | undefined;
	const version = claimed ?? (typeof header === 'string' ? header : undefined);
	if (version !== undefined && version >= FIRST_WITHOUT_BATCHES) {
		throw new HttpError(
			400,
			`JSON-RPC batches are not part of MCP ${version}: send one request per POST.`,
			'batch_not_allowed',
		);
	}
}
