import type { ServerResponse } from 'node:http';
import type { ChatMessage } from 'n8n-nodes-toolbridge';
import { HttpError } from '../http/http-error';
import { sendJson } from '../http/start-http-server';
import { openAIErrorReply } from './openai-error';
import type { ResponsesCall } from './parse-responses-request';
import { newResponseIdentity } from './response-objects';
import { ResponseOutput } from './response-output';
import type { ResponseStore } from './response-store';
import { runAgentRequest, type AgentRequestContext } from './run-agent-request';
import { openSseStream } from './sse-stream';

/**
 * Answers one `POST /v1/responses`: the conversation is the stored one of
 * `previous_response_id` (400 `previous_response_not_found` when the store does not hold
 * it) or of `conversation` (whose lock the turn holds: a second request on it meanwhile
 * waits up to 2 s for it, then gets 409 `SESSION_BUSY`), followed by the request's input;
 * `sessionId` (`x-session-id`) keys the agent's memory sub-node; the answer is a `response`
 * object built by {@link ResponseOutput}, or with `stream: true` its events as they happen.
 * The finished conversation is stored under the response's id unless `store: false`. A
 * failure after the stream started is OpenAI's `error` event (clients raise it).
 *
 * @throws {HttpError} 400 for an unknown `previous_response_id`; 409 for a busy `conversation`.
 * @throws the run's error when nothing was sent yet (the server answers it in OpenAI's shape).
 */
export async function respond(
	context: AgentRequestContext & { store: ResponseStore },
	call: ResponsesCall,
	response: ServerResponse,
	sessionId?: string,
): Promise<void> {
	if (call.conversation === undefined) return respondOnce(context, call, response, sessionId);
	const release = await lockConversation(context.store, call.conversation);
	if (!release)
		throw new HttpError(
			409,
			`Conversation '${call.conversation}' is answering another request: send the next turn after that one's answer.`,
			'SESSION_BUSY',
			{},
			'conversation',
		);
	try {
		await respondOnce(context, call, response, sessionId);
	} finally {
		await release();
	}
}

/** A turn holds its conversation's lock at most this long (a replica killed mid-turn frees it then). */
const CONVERSATION_LOCK_MS = 10 * 60 * 1000;
/** How long a turn waits for the one before it (whose client may already hold its answer) to let go. */
const CONVERSATION_WAIT_MS = 2000;

/**
 * Takes the conversation's lock, waiting up to {@link CONVERSATION_WAIT_MS} for the turn before
 * it: that turn's client gets its answer before the turn lets go of the lock, so a client that
 * sends its next turn at once is not refused. Undefined when the other turn is still answering.
 */
async function lockConversation(
	store: ResponseStore,
	conversation: string,
): Promise<(() => Promise<void>) | undefined> {
	const until = Date.now() + CONVERSATION_WAIT_MS;
	for (;;) {
		const release = await store.lockConversation(conversation, CONVERSATION_LOCK_MS);
		if (release || Date.now() >= until) return release;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

async function respondOnce(
	context: AgentRequestContext & { store: ResponseStore },
	call: ResponsesCall,
	response: ServerResponse,
	sessionId: string | undefined,
): Promise<void> {
	let earlier: ChatMessage[] = [];
	if (call.conversation !== undefined)
		earlier = await context.store.conversation(call.conversation);
	if (call.previousResponseId !== undefined) {
		const stored = await context.store.get(call.previousResponseId);
		if (!stored)
			throw new HttpError(
				400,
				`Previous response with id '${call.previousResponseId}' not found (not kept with store: false, expired, evicted, or kept by another server: replicas share responses through --store).`,
				'previous_response_not_found',
				{},
				'previous_response_id',
			);
		earlier = stored;
	}
	const identity = newResponseIdentity(call);
	const stream = call.stream ? openSseStream(response) : undefined;
	const output = new ResponseOutput(
		identity,
		stream && ((event) => stream.send(event, event.type)),
	);
	output.start();
	const history = [...earlier, ...call.history];
	const request = {
		agent: call.model,
		prompt: call.prompt,
		history,
		input: call.input,
		pins: call.pins,
		sessionId,
	};
	let answer;
	try {
		answer = await runAgentRequest(context, 'responses', request, response, output.onEvent);
	} catch (error) {
		if (!stream) throw error;
		output.fail(openAIErrorReply(error).body.error);
		stream.end();
		return;
	}
	const completed = output.complete(answer.content, answer.usage);
	const conversation: ChatMessage[] = [
		...history,
		{ role: 'user', content: call.prompt },
		{ role: 'assistant', content: answer.content },
	];
	// Stored before the client gets the answer: a replica killed after answering lost nothing.
	if (call.conversation !== undefined)
		await context.store.setConversation(call.conversation, conversation);
	if (call.store) await context.store.set(identity.id, conversation, completed);
	if (!stream) return sendJson(response, 200, completed);
	stream.end();
}
