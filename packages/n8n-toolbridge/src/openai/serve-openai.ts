import type { IncomingMessage, ServerResponse } from 'node:http';
import {
	inProcessConversationStore,
	type ConversationStore,
	type WorkflowSession,
} from 'n8n-nodes-toolbridge';
import { ConcurrencyLimit } from '../http/concurrency-limit';
import { HttpError } from '../http/http-error';
import type { ListenAddress } from '../http/listen-address';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from '../http/read-json-body';
import { acquireSlot, checkRequest } from '../http/request-guards';
import { sendJson, startHttpServer, type RunningHttpServer } from '../http/start-http-server';
import { completeChat } from './complete-chat';
import { openAIErrorReply } from './openai-error';
import { parseChatRequest } from './parse-chat-request';
import { parseResponsesRequest } from './parse-responses-request';
import { respond } from './respond';
import { ResponseStore } from './response-store';

/** Options of {@link serveOpenAI}. */
export interface OpenAIServerOptions {
	address: ListenAddress;
	/**
	 * The opened workflow (`openWorkflowSession`) every run shares: host and credentials, the
	 * redactor, connection flags, model override, the network guard. Each request adds its own
	 * signal and events.
	 */
	session: WorkflowSession;
	/** The agents offered as models (their node names are the model ids). */
	agents: string[];
	token?: string;
	allowedOrigins?: readonly string[];
	/** Runs at once (both endpoints); more get 429 with Retry-After. Default 4. */
	maxConcurrency?: number;
	maxBodyBytes?: number;
	/** Time a client has to send its request body (default 30 s); slow senders hold no slot. */
	bodyTimeoutMs?: number;
	/**
	 * Where Responses state (`previous_response_id`, `GET`/`DELETE /v1/responses/{id}`,
	 * `conversation`) lives: the store replicas share (`--store`), else this process's
	 * (bounded). Give the session the same one for its memory sub-nodes.
	 */
	conversationStore?: ConversationStore;
	/** One line per request (stderr in the CLI). */
	log?: (line: string) => void;
}

type ServerContext = Parameters<typeof respond>[0];

/** A POST endpoint: reads its body into the model asked for and how to answer. */
type Endpoint = (body: unknown) => {
	model: string;
	answer: (context: ServerContext, response: ServerResponse, sessionId?: string) => Promise<void>;
};

const ENDPOINTS: Record<string, Endpoint> = {
	'/v1/chat/completions': (body) => {
		const call = parseChatRequest(body);
		return {
			model: call.model,
			answer: (context, response, sessionId) => completeChat(context, call, response, sessionId),
		};
	},
	'/v1/responses': (body) => {
		const call = parseResponsesRequest(body);
		return {
			model: call.model,
			answer: (context, response, sessionId) => respond(context, call, response, sessionId),
		};
	},
};

/**
 * The `x-session-id` header: the session the agent's memory sub-node continues (1–256
 * printable characters), or undefined without one.
 * @throws {HttpError} 400 for an empty, overlong or repeated header.
 */
function sessionIdOf(request: IncomingMessage): string | undefined {
	const value = request.headers['x-session-id'];
	if (value === undefined) return undefined;
	const printable = (text: string) => [...text].every((character) => character >= ' ');
	if (typeof value !== 'string' || value.trim() === '' || value.length > 256 || !printable(value))
		throw new HttpError(
			400,
			'The x-session-id header must be one session id of 1–256 printable characters.',
			'invalid_request_error',
			{},
			'x-session-id',
		);
	return value;
}

/**
 * An OpenAI-compatible server for a workflow's agents: `GET /v1/models` (one model per
 * agent), `POST /v1/chat/completions` and `POST /v1/responses` (plus `GET`/`DELETE
 * /v1/responses/{id}` for stored responses) — the agent loop and its tools
 * (the real n8n nodes) run here on the request's messages, answered as a `chat.completion` /
 * `response` object or streamed — and `GET /healthz`. Both endpoints share the rules: the
 * bearer token and Origin check, the body read whole (size and time bounded) before a
 * concurrency slot is taken, errors in OpenAI's shape (400, 401, 404 unknown model, 408, 413,
 * 429 + Retry-After, 500, 502), and a client that disconnects aborts its run (no tool starts
 * after that). An `x-session-id` header names the session the agent's memory sub-node
 * continues (both endpoints); Responses state lives in `conversationStore`.
 */
export async function serveOpenAI(options: OpenAIServerOptions): Promise<RunningHttpServer> {
	const limit = new ConcurrencyLimit(options.maxConcurrency ?? 4);
	const created = Math.floor(Date.now() / 1000);
	const context: ServerContext = {
		session: options.session,
		log: options.log ?? (() => {}),
		store: new ResponseStore(options.conversationStore ?? inProcessConversationStore()),
	};
	const models = options.agents.map((id) => ({
		id,
		object: 'model',
		created,
		owned_by: 'toolbridge',
	}));

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const path = new URL(request.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
		if (request.method === 'GET' && path === '/healthz')
			return sendJson(response, 200, { status: 'ok' });
		checkRequest(request, {
			token: options.token,
			allowedOrigins: options.allowedOrigins,
			serverHost: options.address.host,
		});
		if (request.method === 'GET' && path === '/v1/models')
			return sendJson(response, 200, { object: 'list', data: models });
		if (request.method === 'GET' && path.startsWith('/v1/models/')) {
			const model = models.find(
				(candidate) => candidate.id === decodeURIComponent(path.slice('/v1/models/'.length)),
			);
			if (!model) throw unknownModel(decodeURIComponent(path.slice('/v1/models/'.length)));
			return sendJson(response, 200, model);
		}
		const endpoint = Object.hasOwn(ENDPOINTS, path) ? ENDPOINTS[path] : undefined;
		if (endpoint) {
			if (request.method !== 'POST')
				throw new HttpError(405, `Use POST for ${path}.`, 'method_not_allowed', { Allow: 'POST' });
			// The body first: a client that sends it slowly must not hold a slot meanwhile.
			const body = await readJsonBody(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, {
				timeoutMs: options.bodyTimeoutMs,
			});
			const call = endpoint(body);
			if (!options.agents.includes(call.model)) throw unknownModel(call.model);
			const sessionId = sessionIdOf(request);
			const release = acquireSlot(limit);
			try {
				await call.answer(context, response, sessionId);
			} finally {
				release();
			}
			return;
		}
		const stored = /^\/v1\/responses\/([^/]+)$/.exec(path);
		if (stored) return storedResponse(request.method, decodeURIComponent(stored[1]), response);
		throw new HttpError(
			404,
			`Unknown endpoint ${request.method} ${path}: this server has GET /v1/models, POST /v1/chat/completions, POST /v1/responses, GET and DELETE /v1/responses/{id} and GET /healthz.`,
			'unknown_url',
		);
	}

	/** `GET /v1/responses/{id}`: the stored `response`; `DELETE`: forget it. */
	async function storedResponse(
		method: string | undefined,
		id: string,
		response: ServerResponse,
	): Promise<void> {
		if (method !== 'GET' && method !== 'DELETE')
			throw new HttpError(405, 'Use GET or DELETE for /v1/responses/{id}.', 'method_not_allowed', {
				Allow: 'GET, DELETE',
			});
		const found = await context.store.response(id);
		if (!found)
			throw new HttpError(
				404,
				`Response with id '${id}' not found (not kept with store: false, expired, evicted, or kept by another server: replicas share responses through --store).`,
				'not_found',
			);
		if (method === 'GET') return sendJson(response, 200, found);
		await context.store.delete(id);
		sendJson(response, 200, { id, object: 'response', deleted: true });
	}

	function unknownModel(model: string): HttpError {
		return new HttpError(
			404,
			`The model "${model}" does not exist: the models are this workflow's agents (${options.agents.join(', ')}).`,
			'model_not_found',
			{},
			'model',
		);
	}

	return startHttpServer(options.address, handle, openAIErrorReply);
}
