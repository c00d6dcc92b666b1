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
 * `sessionId` (`x-session-id`) keys the agent's memory sub-node; with it the stream opens at
 * the run's first event, so a busy session is a 409 even when streaming.
 *
 * @throws the run's error when nothing was sent yet (the server answers it in OpenAI's shape).
 */
export async function completeChat(
	context: AgentRequestContext,
	call: ChatCompletionCall,
	response: ServerResponse,
	sessionId?: string,
): Promise<void> {
	const identity = newCompletionIdentity(call.model);
	const includeUsage = call.includeUsage;
	// With a session the stream opens at the run's first event: a busy session is still a 409.
	let stream = call.stream && sessionId === undefined ? openSseStream(response) : undefined;
	const chunk = (delta: { role?: 'assistant'; content?: string }, finishReason?: string) => {
		if (call.stream && !stream) {
			stream = openSseStream(response);
			chunk({ role: 'assistant', content: '' });
		}
		stream?.send(chatCompletionChunk(identity, delta, { finishReason, includeUsage }));
	};
	if (stream) chunk({ role: 'assistant', content: '' });
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
		history: sessionHistoryWins(context, call.model, sessionId) ? [] : call.history,
		input: call.input,
		pins: call.pins,
		sessionId,
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
	if (!call.stream)
		return sendJson(response, 200, chatCompletion(identity, content, finishReason, usage));
	// What was streamed is the model's text; a JSON answer repaired or a validator result differs: send it.
	if (callText !== content) chunk({ content: callText === '' ? content : `\n\n${content}` });
	chunk({}, finishReason);
	if (includeUsage) stream?.send(usageChunk(identity, usage));
	stream?.send('[DONE]');
	stream?.end();
}

/**
 * The one rule when a client sends history and a session id: when the agent has a memory
 * sub-node, the session's stored history wins — only the request's last user message is
 * taken, its earlier messages are ignored (the memory already holds the turns it answered).
 * An agent without memory keeps no session, so the client's history is the conversation.
 */
function sessionHistoryWins(
	context: AgentRequestContext,
	agent: string,
	sessionId: string | undefined,
): boolean {
	if (sessionId === undefined) return false;
	return Object.values(context.session.workflow.connections ?? {}).some((outputs) =>
		(outputs as Record<string, unknown[][] | undefined>).ai_memory?.some((targets) =>
			(targets ?? []).some((target) => (target as { node?: string } | null)?.node === agent),
		),
	);
}
