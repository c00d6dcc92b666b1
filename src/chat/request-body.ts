import type { ChatRequest } from './types';

/** The body of a streaming request, serialized whole: the request as given (fields left `undefined` are not sent) plus `stream: true` and `stream_options.include_usage`. */
export function chatRequestBody(request: ChatRequest): string {
	return JSON.stringify({ ...request, ...streamingFields });
}

/** What every request body adds to the request (only ever serialized, never changed). */
const streamingFields = { stream: true, stream_options: { include_usage: true } } as const;

// Stand in for `messages` and `tools` while the rest of a body is serialized. A request that
// contains these texts itself (NUL characters included) is serialized the plain way.
const messagesStandIn = '\u0000toolbridge:messages\u0000';
const toolsStandIn = '\u0000toolbridge:tools\u0000';
const messagesPlaceholder = JSON.stringify(messagesStandIn);
const toolsPlaceholder = JSON.stringify(toolsStandIn);

/**
 * Writes request bodies like {@link chatRequestBody}, byte for byte, for a caller that sends
 * one growing history again and again (the agent loop). It remembers the last request's
 * messages and their JSON: a message that is the same object as the one at its place last
 * time is not serialized again, so a turn serializes only what is new, O(new) instead of
 * O(history); a `tools` array sent again is not serialized again either. Messages and tool
 * arrays must not be changed in place once sent: the agent's states never are (a step
 * makes new arrays and objects).
 */
export class RequestBodyWriter {
	private lastMessages: readonly unknown[] = [];
	private lastMessagesJson: string[] = [];
	private lastTools: unknown;
	private lastToolsJson = '';

	write(request: ChatRequest): string {
		const { messages, tools } = request;
		if (!Array.isArray(messages)) return chatRequestBody(request);
		const head = JSON.stringify({
			...request,
			messages: messagesStandIn,
			...(Array.isArray(tools) ? { tools: toolsStandIn } : {}),
			...streamingFields,
		});
		let body = spliceOnce(
			head,
			messagesPlaceholder,
			() => `[${this.messagesJson(messages).join(',')}]`,
		);
		if (body !== undefined && Array.isArray(tools))
			body = spliceOnce(body, toolsPlaceholder, () => this.toolsJson(tools));
		return body ?? chatRequestBody(request);
	}

	private messagesJson(messages: readonly unknown[]): string[] {
		const json = new Array<string>(messages.length);
		for (let index = 0; index < messages.length; index++) {
			const message = messages[index];
			json[index] =
				index < this.lastMessages.length && this.lastMessages[index] === message
					? this.lastMessagesJson[index]
					: (JSON.stringify(message) ?? 'null');
		}
		// A copy: the caller's array may grow in place before the next call.
		this.lastMessages = messages.slice();
		this.lastMessagesJson = json;
		return json;
	}

	private toolsJson(tools: unknown[]): string {
		if (tools !== this.lastTools) {
			this.lastToolsJson = JSON.stringify(tools);
			this.lastTools = tools;
		}
		return this.lastToolsJson;
	}
}

/** `text` with its one occurrence of `placeholder` replaced; `undefined` when it occurs more or less than once. */
function spliceOnce(
	text: string,
	placeholder: string,
	replacement: () => string,
): string | undefined {
	const at = text.indexOf(placeholder);
	if (at === -1 || text.indexOf(placeholder, at + placeholder.length) !== -1) return undefined;
	return text.slice(0, at) + replacement() + text.slice(at + placeholder.length);
}
