import type { ChatMessage, WireToolCall } from 'n8n-nodes-toolbridge';
import { HttpError } from '../http/http-error';
import { agentExtensionFields, type AgentExtensionFields } from './agent-extension-fields';

/** A Responses API request, reduced to what a workflow agent runs on. */
export interface ResponsesCall extends AgentExtensionFields {
	/** The agent (model id). */
	model: string;
	/** The text of the last input item: the user's message. */
	prompt: string;
	/** This request's input items before the prompt, as chat messages (no system messages). */
	history: ChatMessage[];
	/** The stored response this one continues. */
	previousResponseId?: string;
	/** The server-kept conversation this turn continues and extends (`conversation`). */
	conversation?: string;
	/** Keep this response for a later `previous_response_id` (OpenAI's default: true). */
	store: boolean;
	stream: boolean;
	/** Echoed in the response object, never sent to the agent (it has its own). */
	instructions: string | null;
	/** Echoed in the response object. */
	metadata: Record<string, unknown>;
}

/** A 400 in OpenAI's shape, naming the parameter. */
function badRequest(message: string, param: string | null): HttpError {
	return new HttpError(400, message, 'invalid_request_error', {}, param);
}

/**
 * Reads a `POST /v1/responses` body. As with Chat Completions, the workflow decides the
 * model, its options and its tools: `instructions` (like system messages), `include`,
 * `reasoning`, `text`, `tool_choice` and sampling options are ignored, client-side `tools`
 * are refused. `input` is a string or a list of items: messages (`input_text` /
 * `output_text` / `refusal` parts; system and developer messages dropped), a client's own
 * `function_call` / `function_call_output` pairs as history, and this server's own `mcp_call`
 * and `reasoning` items skipped (their effect is in the assistant messages beside them). The
 * last item must be the user's message, in text. `agent_input` and `agent_pins` are this
 * server's extension fields.
 *
 * @throws {HttpError} 400 for a body that does not follow these rules.
 */
export function parseResponsesRequest(body: unknown): ResponsesCall {
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		throw badRequest('The request body must be a JSON object.', null);
	const request = body as Record<string, unknown>;
	if (typeof request.model !== 'string' || request.model === '')
		throw badRequest('"model" is required: one of the ids GET /v1/models lists.', 'model');
	if (Array.isArray(request.tools) && request.tools.length > 0)
		throw badRequest(
			'"tools" is not supported: this server runs the workflow\'s own tools (its n8n nodes) server-side and returns the answer. Send the request without "tools".',
			'tools',
		);
	if (request.background === true)
		throw badRequest(
			'"background" is not supported: send the request and wait for it.',
			'background',
		);
	const conversation = conversationId(request.conversation);
	for (const flag of ['stream', 'store'] as const)
		if (request[flag] !== undefined && request[flag] !== null && typeof request[flag] !== 'boolean')
			throw badRequest(`"${flag}" must be a boolean.`, flag);
	const previous = request.previous_response_id;
	if (
		previous !== undefined &&
		previous !== null &&
		(typeof previous !== 'string' || previous === '')
	)
		throw badRequest('"previous_response_id" must be a response id.', 'previous_response_id');
	if (conversation !== undefined && typeof previous === 'string')
		throw badRequest(
			'"conversation" and "previous_response_id" cannot be used together: a conversation already holds the earlier turns.',
			'conversation',
		);
	const messages = inputMessages(request.input);
	const last = messages.at(-1);
	if (last?.role !== 'user')
		throw badRequest('The last input item must be the user\'s message (role "user").', 'input');
	return {
		model: request.model,
		prompt: last.content as string,
		history: messages.slice(0, -1).filter((message) => message.role !== 'system'),
		previousResponseId: typeof previous === 'string' ? previous : undefined,
		conversation,
		store: request.store !== false,
		stream: request.stream === true,
		instructions: typeof request.instructions === 'string' ? request.instructions : null,
		metadata:
			typeof request.metadata === 'object' && request.metadata !== null
				? (request.metadata as Record<string, unknown>)
				: {},
		...agentExtensionFields(request),
	};
}

/** `input` as chat messages (contents as strings). */
function inputMessages(input: unknown): ChatMessage[] {
	if (typeof input === 'string') {
		if (input === '') throw badRequest('"input" is empty.', 'input');
		return [{ role: 'user', content: input }];
	}
	if (!Array.isArray(input) || input.length === 0)
		throw badRequest('"input" must be a string or a non-empty array of items.', 'input');
	const messages: ChatMessage[] = [];
	input.forEach((value, index) => {
		const param = `input[${index}]`;
		if (typeof value !== 'object' || value === null)
			throw badRequest(`${param} must be an object.`, param);
		const item = value as Record<string, unknown>;
		switch (item.type ?? 'message') {
			case 'message':
				messages.push(messageOf(item, param));
				return;
			case 'function_call': {
				if (typeof item.call_id !== 'string' || typeof item.name !== 'string')
					throw badRequest(`${param}: a function_call needs "call_id" and "name".`, param);
				const call: WireToolCall = {
					id: item.call_id,
					type: 'function',
					function: {
						name: item.name,
						arguments: typeof item.arguments === 'string' ? item.arguments : '{}',
					},
				};
				const previous = messages.at(-1);
				if (previous?.role === 'assistant' && previous.tool_calls) previous.tool_calls.push(call);
				else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
				return;
			}
			case 'function_call_output':
				if (typeof item.call_id !== 'string')
					throw badRequest(`${param}: a function_call_output needs "call_id".`, param);
				messages.push({
					role: 'tool',
					tool_call_id: item.call_id,
					content: typeof item.output === 'string' ? item.output : JSON.stringify(item.output),
				});
				return;
			case 'mcp_call':
			case 'mcp_list_tools':
			case 'reasoning':
				return;
			default:
				throw badRequest(
					`${param}: items of type "${String(item.type)}" are not supported (messages, function_call, function_call_output; this server's mcp_call and reasoning items are skipped).`,
					param,
				);
		}
	});
	return messages;
}

function messageOf(item: Record<string, unknown>, param: string): ChatMessage {
	const content = textOf(item.content, `${param}.content`);
	switch (item.role) {
		case 'user':
			return { role: 'user', content };
		case 'assistant':
			return { role: 'assistant', content };
		case 'system':
		case 'developer':
			return { role: 'system', content };
		default:
			throw badRequest(
				`${param}.role must be user, assistant, system or developer.`,
				`${param}.role`,
			);
	}
}

/** A message's text: a string, or its text parts joined (other parts are refused). */
function textOf(content: unknown, param: string): string {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content))
		throw badRequest(`${param} must be a string or an array of text parts.`, param);
	return content
		.map((part: { type?: unknown; text?: unknown; refusal?: unknown }) => {
			if (
				(part?.type === 'input_text' || part?.type === 'output_text') &&
				typeof part.text === 'string'
			)
				return part.text;
			if (part?.type === 'refusal' && typeof part.refusal === 'string') return part.refusal;
			throw badRequest(
				`${param}: only input_text, output_text and refusal parts are supported (the agent's prompt is text).`,
				param,
			);
		})
		.join('');
}

/** `conversation`: an id, or `{ id }` (OpenAI's two forms), or absent. */
function conversationId(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const id = typeof value === 'object' ? (value as { id?: unknown }).id : value;
	if (typeof id !== 'string' || id === '' || id.length > 256)
		throw badRequest(
			'"conversation" must be a conversation id (a string of 1–256 characters) or { "id": … }.',
			'conversation',
		);
	return id;
}
