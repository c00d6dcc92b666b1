import type { ServerResponse } from 'node:http';
import type { AgentEvent } from 'n8n-nodes-toolbridge';
import { sendJson } from '../http/start-http-server';
import {
	chatCompletion,
	chatCompletionChunk,
	newCompletionIdentity,
	usageChunk,
} from './completion-objects';
import { openAIErrorReply } from './openai-error';
import type { ChatCompletionCall } from './parse-chat-request';
import { runAgentRequest, type AgentRequestContext } from './run-agent-request';
import { openSseStream } from './sse-stream';

/**
 * Answers one `POST /v1/chat/completions`: a `chat.completion`, or with `stream: true`
 * `chat.completion.chunk` events of the model's text as it comes (every model call's, redacted
 * where the run reports it), the answer itself when it differs from the streamed text (a
 * validator result, a repaired JSON answer), a usage chunk with `include_usage`, then `[DONE]`.
 * A failure after the stream started is an event holding `error` (OpenAI's clients raise it).
 *
 * @throws the run's error when nothing was sent yet (the server answers it in OpenAI's shape).
 */
export async function completeChat(
	context: AgentRequestContext,
	call: ChatCompletionCall,
	response: ServerResponse,
): Promise<void> {
	const identity = newCompletionIdentity(call.model);
	const includeUsage = call.includeUsage;
	const stream = call.stream ? openSseStream(response) : undefined;
	const chunk = (delta: { role?: 'assistant'; content?: string }, finishReason?: string) =>
		stream?.send(chatCompletionChunk(identity, delta, { finishReason, includeUsage }));
	chunk({ role: 'assistant', content: '' });
	let callText = '';
	const onEvent = (event: AgentEvent): void => {
		if (event.type === 'model-call-start') callText = '';
		if (event.type !== 'text-delta') return;
		callText += event.text;
		chunk({ content: event.text });
	};
	const request = {
		agent: call.model,
		prompt: call.prompt,
		history: call.history,
		input: call.input,
		pins: call.pins,
	};
	let answer;
	try {
		answer = await runAgentRequest(context, 'chat.completions', request, response, onEvent);
	} catch (error) {
		if (!stream) throw error;
		// OpenAI's way to fail mid-stream: an event holding `error` (clients raise it), then the end.
		stream.send(openAIErrorReply(error).body);
		stream.end();
		return;
	}
	const { content, usage, finishReason } = answer;
	if (!stream)
		return sendJson(response, 200, chatCompletion(identity, content, finishReason, usage));
	// What was streamed is the model's text; a JSON answer repaired or a validator result differs: send it.
	if (callText !== content) chunk({ content: callText === '' ? content : `\n\n${content}` });
	chunk({}, finishReason);
	if (includeUsage) stream.send(usageChunk(identity, usage));
	stream.send('[DONE]');
	stream.end();
}
