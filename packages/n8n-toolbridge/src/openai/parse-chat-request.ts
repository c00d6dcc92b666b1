import type { ChatMessage } from 'n8n-nodes-toolbridge';
import { HttpError } from '../http/http-error';
import { agentExtensionFields, type AgentExtensionFields } from './agent-extension-fields';

/** A Chat Completions request, reduced to what a workflow agent runs on. */
export interface ChatCompletionCall extends AgentExtensionFields {
	/** The agent (model id). */
	model: string;
	/** The text of the last user message. */
	prompt: string;
	/** The messages before it, without system messages (the agent has its own). */
	history: ChatMessage[];
	stream: boolean;
	/** `stream_options.include_usage`: a last chunk with the usage. */
	includeUsage: boolean;
}

/** A 400 in OpenAI's shape, naming the parameter. */
function badRequest(message: string, param: string | null): HttpError {
	return new HttpError(400, message, 'invalid_request_error', {}, param);
}

/**
 * Reads a `POST /v1/chat/completions` body. The workflow decides the model, its options and
 * its tools, so sampling options (temperature, max_tokens …) are ignored, `tools` is refused
 * (client-side tools are not supported: the server runs the workflow's own tools), and so
 * is `n` > 1. System (and developer) messages are dropped. The last message must be the
 * user's, in text. `agent_input` and `agent_pins` are this server's extension fields.
 *
 * @throws {HttpError} 400 for a body that does not follow these rules.
 */
export function parseChatRequest(body: unknown): ChatCompletionCall {
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		throw badRequest('The request body must be a JSON object.', null);
	const request = body as Record<string, unknown>;
	if (typeof request.model !== 'string' || request.model === '')
		throw badRequest('"model" is required: one of the ids GET /v1/models lists.', 'model');
	if (Array.isArray(request.tools) && request.tools.length > 0) {
		throw badRequest(
			'"tools" is not supported: this server runs the workflow\'s own tools (its n8n nodes) server-side and returns the answer. Send the request without "tools".',
			'tools',
		);
	}
	if (request.n !== undefined && request.n !== 1)
		throw badRequest('"n" must be 1: the agent gives one answer.', 'n');
	if (request.stream !== undefined && typeof request.stream !== 'boolean')
		throw badRequest('"stream" must be a boolean.', 'stream');
	const streamOptions = request.stream_options as { include_usage?: unknown } | undefined | null;
	if (!Array.isArray(request.messages) || request.messages.length === 0)
		throw badRequest('"messages" must be a non-empty array.', 'messages');
	const messages = request.messages.map((message, index) => toChatMessage(message, index));
	const last = messages.at(-1)!;
	if (last.role !== 'user')
		throw badRequest(
			`The last message must be the user's (role "user"), not "${last.role}".`,
			`messages[${messages.length - 1}].role`,
		);
	return {
		model: request.model,
		prompt: textOf(last.content, messages.length - 1),
		history: messages.slice(0, -1).filter((message) => message.role !== 'system'),
		stream: request.stream === true,
		includeUsage: request.stream === true && streamOptions?.include_usage === true,
		...agentExtensionFields(request),
	};
}

function toChatMessage(value: unknown, index: number): ChatMessage {
	const param = `messages[${index}]`;
	if (typeof value !== 'object' || value === null)
		throw badRequest(`${param} must be an object with "role" and "content".`, param);
	const message = value as Record<string, unknown>;
	switch (message.role) {
		case 'system':
		case 'developer':
			return { role: 'system', content: textOf(message.content, index) };
		case 'user':
			return { role: 'user', content: textOf(message.content, index) };
		case 'assistant': {
			const toolCalls = message.tool_calls;
			if (toolCalls !== undefined && !Array.isArray(toolCalls))
				throw badRequest(`${param}.tool_calls must be an array.`, `${param}.tool_calls`);
			const content =
				message.content === null || message.content === undefined
					? null
					: textOf(message.content, index);
			return toolCalls?.length
				? { role: 'assistant', content, tool_calls: toolCalls as never }
				: { role: 'assistant', content: content ?? '' };
		}
		case 'tool':
			if (typeof message.tool_call_id !== 'string')
				throw badRequest(
					`${param}.tool_call_id is required for a tool message.`,
					`${param}.tool_call_id`,
				);
			return {
				role: 'tool',
				tool_call_id: message.tool_call_id,
				content: textOf(message.content, index),
			};
		default:
			throw badRequest(
				`${param}.role must be system, developer, user, assistant or tool.`,
				`${param}.role`,
			);
	}
}

/** A message's text: a string, or text parts joined (other parts are refused). */
function textOf(content: unknown, index: number): string {
	const param = `messages[${index}].content`;
	if (typeof content === 'string') return content;
	if (!Array.isArray(content))
		throw badRequest(`${param} must be a string or an array of text parts.`, param);
	return content
		.map((part: { type?: unknown; text?: unknown }) => {
			if (part?.type !== 'text' || typeof part.text !== 'string')
				throw badRequest(
					`${param}: only text parts are supported (the agent's prompt is text).`,
					param,
				);
			return part.text;
		})
		.join('');
}
