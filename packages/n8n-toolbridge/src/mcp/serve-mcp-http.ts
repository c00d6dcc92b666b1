import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ConcurrencyLimit } from '../http/concurrency-limit';
import { HttpError } from '../http/http-error';
import type { ListenAddress } from '../http/listen-address';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from '../http/read-json-body';
import { acquireSlot, checkRequest } from '../http/request-guards';
import { sendJson, startHttpServer, type RunningHttpServer } from '../http/start-http-server';

/** Options of {@link serveMcpHttp}. */
export interface McpHttpOptions {
	address: ListenAddress;
	/** A new MCP server for each client session (they share the tools, not the protocol state). */
	createServer: () => Server;
	/** Required bearer token; checked in constant time. */
	token?: string;
	/** Browser origins allowed besides loopback ones. */
	allowedOrigins?: readonly string[];
	/** Requests handled at once; more get 429 with Retry-After. Default 8. */
	maxConcurrency?: number;
	/** Request body cap in bytes. Default 1 MiB. */
	maxBodyBytes?: number;
	/** Client sessions kept at once. Default 32. */
	maxSessions?: number;
	/** A session unused this long is closed (ms). Default 30 min. */
	sessionIdleMs?: number;
}

interface Session {
	transport: StreamableHTTPServerTransport;
	server: Server;
	lastUsed: number;
}

const PATH = '/mcp';

/**
 * Serves MCP over Streamable HTTP at `/mcp` (POST for requests, GET for the server's
 * stream, DELETE to end a session), one SDK transport and server per client session. Before
 * the transport sees a request: the Origin check (403), the bearer token (401), the
 * concurrency limit (429 + Retry-After) and the body-size limit (413). `GET /healthz`
 * answers without authentication.
 */
export async function serveMcpHttp(options: McpHttpOptions): Promise<RunningHttpServer> {
	const sessions = new Map<string, Session>();
	const limit = new ConcurrencyLimit(options.maxConcurrency ?? 8);
	const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
	const maxSessions = options.maxSessions ?? 32;
	const idleMs = options.sessionIdleMs ?? 30 * 60_000;
	const sweep = setInterval(
		() => {
			const now = Date.now();
			for (const session of sessions.values())
				if (now - session.lastUsed > idleMs) void session.transport.close();
		},
		Math.min(idleMs, 60_000),
	);
	sweep.unref();

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const path = new URL(request.url ?? '/', 'http://localhost').pathname;
		if (request.method === 'GET' && path === '/healthz')
			return sendJson(response, 200, { status: 'ok' });
		checkRequest(request, {
			token: options.token,
			allowedOrigins: options.allowedOrigins,
			serverHost: options.address.host,
		});
		if (path !== PATH)
			throw new HttpError(404, `Not found: the MCP endpoint is ${PATH}.`, 'not_found');
		const sessionId = headerValue(request, 'mcp-session-id');
		const existing = sessionId === undefined ? undefined : sessions.get(sessionId);
		if (sessionId !== undefined && !existing)
			throw new HttpError(
				404,
				'Unknown or expired session: initialize again.',
				'session_not_found',
			);
		if (request.method !== 'POST') {
			if (!existing)
				throw new HttpError(
					400,
					'Send an initialize request first (POST without an Mcp-Session-Id header).',
					'no_session',
				);
			existing.lastUsed = Date.now();
			return existing.transport.handleRequest(request, response);
		}
		const release = acquireSlot(limit);
		response.once('close', release);
		const body = await readJsonBody(request, maxBodyBytes);
		if (existing) {
			existing.lastUsed = Date.now();
			return existing.transport.handleRequest(request, response, body);
		}
		if (!isInitializeRequest(body))
			throw new HttpError(400, 'No session: the first request must be initialize.', 'no_session');
		if (sessions.size >= maxSessions) {
			throw new HttpError(
				503,
				`Too many open sessions (${maxSessions}); end one (DELETE ${PATH}) or retry later.`,
				'too_many_sessions',
				{ 'Retry-After': '5' },
			);
		}
		const server = options.createServer();
		const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
			sessionIdGenerator: () => randomUUID(),
			onsessioninitialized: (id) => {
				sessions.set(id, { transport, server, lastUsed: Date.now() });
			},
		});
		transport.onclose = () => {
			if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
		};
		await server.connect(transport);
		await transport.handleRequest(request, response, body);
	}

	const running = await startHttpServer(options.address, handle, (error) => {
		const refused =
			error instanceof HttpError ? error : new HttpError(500, 'Internal error.', 'internal_error');
		return {
			status: refused.status,
			body: { jsonrpc: '2.0', error: { code: -32000, message: refused.message }, id: null },
			headers: refused.headers,
		};
	});
	const close = running.close;
	return {
		...running,
		close: async () => {
			clearInterval(sweep);
			await Promise.all(
				[...sessions.values()].map((session) => session.server.close().catch(() => {})),
			);
			await close();
		},
	};
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
	const value = request.headers[name];
	return Array.isArray(value) ? value[0] : value;
}
