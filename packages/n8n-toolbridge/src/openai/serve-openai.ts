import type { IncomingMessage, ServerResponse } from 'node:http';
import {
	runSessionAgent,
	type AgentEvent,
	type Usage,
	type WorkflowAgentRun,
	type WorkflowSession,
} from 'n8n-nodes-toolbridge';
import { ConcurrencyLimit } from '../http/concurrency-limit';
import { HttpError } from '../http/http-error';
import type { ListenAddress } from '../http/listen-address';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from '../http/read-json-body';
import { acquireSlot, checkRequest } from '../http/request-guards';
import { sendJson, startHttpServer, type RunningHttpServer } from '../http/start-http-server';
import {
	chatCompletion,
	chatCompletionChunk,
	newCompletionIdentity,
	usageChunk,
	type CompletionIdentity,
} from './completion-objects';
import { openAIErrorReply } from './openai-error';
import { parseChatRequest, type ChatCompletionCall } from './parse-chat-request';

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
	/** Completions running at once; more get 429 with Retry-After. Default 4. */
	maxConcurrency?: number;
	maxBodyBytes?: number;
	/** One line per request (stderr in the CLI). */
	log?: (line: string) => void;
}

/**
 * An OpenAI-compatible server for a workflow's agents: `GET /v1/models` (one model per
 * agent), `POST /v1/chat/completions` — the agent loop and its tools (the real n8n nodes) run
 * here on the request's messages; `stream: true` sends `chat.completion.chunk` events ending
 * in `[DONE]`, with a usage chunk when `stream_options.include_usage` — and `GET /healthz`.
 * Errors have OpenAI's shape (400, 401, 404 unknown model, 413, 429 + Retry-After, 500, 502).
 * A client that disconnects aborts its run: no tool starts after that.
 */
export async function serveOpenAI(options: OpenAIServerOptions): Promise<RunningHttpServer> {
	const limit = new ConcurrencyLimit(options.maxConcurrency ?? 4);
	const created = Math.floor(Date.now() / 1000);
	const log = options.log ?? (() => {});
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
		if (path === '/v1/chat/completions') {
			if (request.method !== 'POST')
				throw new HttpError(405, 'Use POST for /v1/chat/completions.', 'method_not_allowed', {
					Allow: 'POST',
				});
			const release = acquireSlot(limit);
			try {
				const call = parseChatRequest(
					await readJsonBody(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES),
				);
				if (!options.agents.includes(call.model)) throw unknownModel(call.model);
				await complete(call, response);
			} finally {
				release();
			}
			return;
		}
		throw new HttpError(
			404,
			`Unknown endpoint ${request.method} ${path}: this server has GET /v1/models, POST /v1/chat/completions and GET /healthz.`,
			'unknown_url',
		);
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

	async function complete(call: ChatCompletionCall, response: ServerResponse): Promise<void> {
		const identity = newCompletionIdentity(call.model);
		const controller = new AbortController();
		// The client hung up before the answer: stop the run (the loop starts no tool after an abort).
		const onClose = () => {
			if (!response.writableFinished) controller.abort(new Error('The client disconnected.'));
		};
		response.once('close', onClose);
		const started = Date.now();
		const stream = call.stream ? openStream(response, identity, call.includeUsage) : undefined;
		let callText = '';
		const onEvent = (event: AgentEvent): void => {
			if (event.type === 'model-call-start') callText = '';
			if (event.type !== 'text-delta') return;
			callText += event.text;
			stream?.delta(event.text);
		};
		let run: WorkflowAgentRun;
		try {
			run = await runSessionAgent(
				{ ...options.session, signal: controller.signal, onEvent },
				{ agent: call.model, prompt: call.prompt, history: call.history },
			);
		} catch (error) {
			log(
				`chat.completions ${call.model} → ${controller.signal.aborted ? 'aborted (client gone)' : `failed: ${(error as Error).message}`} [${Date.now() - started} ms]`,
			);
			if (!stream) throw error;
			stream.fail(error);
			return;
		} finally {
			response.off('close', onClose);
		}
		const { content, usage, finishReason } = answerOf(run);
		log(
			`chat.completions ${call.model} → ok, ${usage.totalTokens} tokens [${Date.now() - started} ms]`,
		);
		if (!stream)
			return sendJson(response, 200, chatCompletion(identity, content, finishReason, usage));
		// What was streamed is the model's text; a JSON answer repaired or a validator result differs: send it.
		if (callText !== content) stream.delta(callText === '' ? content : `\n\n${content}`);
		stream.finish(finishReason, usage);
	}

	const running = await startHttpServer(options.address, handle, openAIErrorReply);
	return running;
}

function answerOf(run: WorkflowAgentRun): { content: string; usage: Usage; finishReason: string } {
	if (run.mode === 'validator') {
		const { tool, arguments: toolArguments, result, attempts, usage } = run.validator;
		return {
			content: JSON.stringify({ tool, arguments: toolArguments, result, attempts }),
			usage,
			finishReason: 'stop',
		};
	}
	return {
		content: run.result.output,
		usage: run.result.usage,
		finishReason: run.result.finishReason === 'length' ? 'length' : 'stop',
	};
}

/** An SSE response of `chat.completion.chunk` events. */
function openStream(response: ServerResponse, identity: CompletionIdentity, includeUsage: boolean) {
	response.writeHead(200, {
		'Content-Type': 'text/event-stream',
		'Cache-Control': 'no-cache',
		Connection: 'keep-alive',
		'X-Accel-Buffering': 'no',
	});
	const send = (data: object | string) => {
		if (!response.writableEnded)
			response.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
	};
	send(chatCompletionChunk(identity, { role: 'assistant', content: '' }, { includeUsage }));
	return {
		delta: (text: string) =>
			send(chatCompletionChunk(identity, { content: text }, { includeUsage })),
		finish(finishReason: string, usage: Usage) {
			send(chatCompletionChunk(identity, {}, { finishReason, includeUsage }));
			if (includeUsage) send(usageChunk(identity, usage));
			send('[DONE]');
			response.end();
		},
		/** OpenAI's way to fail mid-stream: an event holding `error` (clients raise it), then the end. */
		fail(error: unknown) {
			send(openAIErrorReply(error).body);
			response.end();
		},
	};
}
