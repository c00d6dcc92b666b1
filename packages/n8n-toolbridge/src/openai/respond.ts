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
 * `previous_response_id` (400 `previous_response_not_found` when this process does not hold
 * it) followed by the request's input; the answer is a `response` object built by
 * {@link ResponseOutput}, or with `stream: true` its events as they happen. The finished
 * conversation is stored under the response's id unless `store: false`. A failure after the
 * stream started is OpenAI's `error` event (clients raise it).
 *
 * @throws {HttpError} 400 for an unknown `previous_response_id`.
 * @throws the run's error when nothing was sent yet (the server answers it in OpenAI's shape).
 */
export async function respond(
	context: AgentRequestContext & { store: ResponseStore },
	call: ResponsesCall,
	response: ServerResponse,
): Promise<void> {
	let earlier: ChatMessage[] = [];
	if (call.previousResponseId !== undefined) {
		const stored = context.store.get(call.previousResponseId);
		if (!stored)
			throw new HttpError(
				400,
				`Previous response with id '${call.previousResponseId}' not found (responses are kept in this server's memory, a bounded number, and not with store: false).`,
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
	if (call.store)
		context.store.set(
			identity.id,
			[
				...history,
				{ role: 'user', content: call.prompt },
				{ role: 'assistant', content: answer.content },
			],
			completed,
		);
	if (!stream) return sendJson(response, 200, completed);
	stream.end();
}
