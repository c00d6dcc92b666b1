import type { ChatRequest } from './types';

/** The body of a streaming request, serialized whole: the request as given (fields left `undefined` are not sent) plus `stream: true` and `stream_options.include_usage`. */
export function chatRequestBody(request: ChatRequest): string {
	return JSON.stringify({ ...request, stream: true, stream_options: { include_usage: true } });
}

// Stand in for `messages` and `tools` while the rest of a body is serialized. A request that
// contains these texts itself (NUL characters included) is serialized the plain way.
const messagesStandIn = '\u0000toolbridge:messages\u0000';
const toolsStandIn = '\u0000toolbridge:tools\u0000';
const messagesPlaceholder = JSON.stringify(messagesStandIn);
const toolsPlaceholder = JSON.stringify(toolsStandIn);

/**
 * Writes request bodies like {@link chatRequestBody}, byte for byte, for a caller that sends
 * one growing history again and again (the agent loop): each message object's JSON is kept
 * (per object, in a WeakMap), so a call serializes only the messages that are new since the
 * last one, O(new) instead of O(history) per turn; a `tools` array sent again is not
 * serialized again either. Messages and tool arrays must not be changed in place once sent:
 * the agent's states never are (a step makes new arrays and objects).
 */
export class RequestBodyWriter {
	private readonly json = new WeakMap<object, string>();

	write(request: ChatRequest): string {
		const { messages, tools } = request;
		if (!Array.isArray(messages)) return chatRequestBody(request);
		const head = JSON.stringify({
			...request,
			messages: messagesStandIn,
			...(Array.isArray(tools) ? { tools: toolsStandIn } : {}),
			stream: true,
			stream_options: { include_usage: true },
		});
		let body = spliceOnce(head, messagesPlaceholder, () => `[${messages.map((message) => this.jsonOf(message)).join(',')}]`);
		if (body !== undefined && Array.isArray(tools)) body = spliceOnce(body, toolsPlaceholder, () => this.jsonOf(tools));
		return body ?? chatRequestBody(request);
	}

	private jsonOf(value: unknown): string {
		if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
		let json = this.json.get(value);
		if (json === undefined) {
			json = JSON.stringify(value);
			this.json.set(value, json);
		}
		return json;
	}
}

/** `text` with its one occurrence of `placeholder` replaced; `undefined` when it occurs more or less than once. */
function spliceOnce(text: string, placeholder: string, replacement: () => string): string | undefined {
	const at = text.indexOf(placeholder);
	if (at === -1 || text.indexOf(placeholder, at + placeholder.length) !== -1) return undefined;
	return text.slice(0, at) + replacement() + text.slice(at + placeholder.length);
}
