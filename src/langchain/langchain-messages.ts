import { createRequire } from 'node:module';
import type {
	ChatMessage,
	ContentPart,
	FilePart,
	ReasoningDetail,
	WireToolCall,
} from '../chat/types';
import { ToolbridgeError } from '../errors/toolbridge-error';

/** The fields of a LangChain message this package reads (duck-typed across @langchain/core copies). */
export interface LangChainMessageLike {
	content: unknown;
	_getType?: () => string;
	getType?: () => string;
	type?: string;
	tool_calls?: Array<{ id?: string; name: string; args: Record<string, unknown> }>;
	tool_call_id?: string;
	additional_kwargs?: Record<string, unknown>;
}

type MessageClasses = {
	HumanMessage: new (fields: Record<string, unknown>) => unknown;
	AIMessage: new (fields: Record<string, unknown>) => unknown;
	ToolMessage: new (fields: Record<string, unknown>) => unknown;
	SystemMessage: new (fields: Record<string, unknown>) => unknown;
};
let cachedClasses: MessageClasses | undefined;

/**
 * Converts LangChain messages (from any chat memory) to wire messages. AI tool calls
 * keep their ids, and `reasoning_details` kept in `additional_kwargs` come back as they
 * were saved. Messages of other kinds (function, remove…) are skipped.
 */
export function wireMessagesFromLangChain(messages: readonly unknown[]): ChatMessage[] {
	const result: ChatMessage[] = [];
	for (const message of messages) {
		const converted = wireMessageFrom(message as LangChainMessageLike);
		if (converted) result.push(converted);
	}
	return result;
}

/**
 * Converts wire messages to LangChain messages (the classes of the @langchain/core that
 * resolves from here — inside n8n, n8n's own copy): AI messages carry real `tool_calls`,
 * tool results are ToolMessages; nothing is flattened into text.
 *
 * @throws ToolbridgeError `LANGCHAIN_UNAVAILABLE` when @langchain/core cannot be loaded.
 */
export function langChainMessagesFromWire(messages: readonly ChatMessage[]): unknown[] {
	const { HumanMessage, AIMessage, ToolMessage, SystemMessage } = messageClasses();
	return messages.map((message) => {
		switch (message.role) {
			case 'system':
				return new SystemMessage({ content: message.content });
			case 'user':
				return new HumanMessage({ content: message.content });
			case 'tool':
				return new ToolMessage({ content: message.content, tool_call_id: message.tool_call_id });
			case 'assistant': {
				const additional: Record<string, unknown> = {};
				if (message.reasoning_details) additional.reasoning_details = message.reasoning_details;
				if (message.reasoning) additional.reasoning = message.reasoning;
				return new AIMessage({
					content: message.content ?? '',
					tool_calls: (message.tool_calls ?? []).map((call) => ({
						id: call.id,
						name: call.function.name,
						args: parseArguments(call.function.arguments),
						type: 'tool_call',
					})),
					additional_kwargs: additional,
				});
			}
		}
	});
}

function wireMessageFrom(message: LangChainMessageLike): ChatMessage | undefined {
	if (typeof message !== 'object' || message === null) return undefined;
	const type = message._getType?.() ?? message.getType?.() ?? message.type;
	switch (type) {
		case 'human':
		case 'user':
			return { role: 'user', content: userContent(message.content) };
		case 'system':
			return { role: 'system', content: langChainText(message.content) };
		case 'tool':
			if (typeof message.tool_call_id !== 'string') return undefined;
			return {
				role: 'tool',
				tool_call_id: message.tool_call_id,
				content: langChainText(message.content),
			};
		case 'ai':
		case 'assistant':
			return assistantFrom(message);
		default:
			return undefined;
	}
}

function assistantFrom(message: LangChainMessageLike): ChatMessage {
	const text = langChainText(message.content);
	const calls: WireToolCall[] = (message.tool_calls ?? [])
		.filter((call) => typeof call.id === 'string' && call.id !== '')
		.map((call) => ({
			id: call.id as string,
			type: 'function',
			function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
		}));
	const assistant: Extract<ChatMessage, { role: 'assistant' }> = {
		role: 'assistant',
		content: calls.length > 0 && text === '' ? null : text,
	};
	if (calls.length > 0) assistant.tool_calls = calls;
	const details = message.additional_kwargs?.reasoning_details;
	if (Array.isArray(details) && details.length > 0)
		assistant.reasoning_details = details as ReasoningDetail[];
	const reasoning = message.additional_kwargs?.reasoning;
	if (typeof reasoning === 'string' && reasoning !== '' && !assistant.reasoning_details)
		assistant.reasoning = reasoning;
	return assistant;
}

function userContent(content: unknown): string | ContentPart[] {
	if (!Array.isArray(content)) return langChainText(content);
	const parts: ContentPart[] = [];
	for (const part of content as Array<Record<string, unknown>>) {
		if (typeof part === 'string') parts.push({ type: 'text', text: part });
		else if (part?.type === 'text' && typeof part.text === 'string')
			parts.push({ type: 'text', text: part.text });
		else if (part?.type === 'image_url') {
			const image = part.image_url as string | { url?: string };
			const url = typeof image === 'string' ? image : image?.url;
			if (typeof url === 'string') parts.push({ type: 'image_url', image_url: { url } });
		} else if (part?.type === 'file' || part?.type === 'image') {
			const converted = mediaPartFrom(part);
			if (converted) parts.push(converted);
		}
	}
	return parts;
}

/**
 * A file or image part in one of LangChain's other shapes: OpenAI's
 * `{ type: 'file', file: { filename, file_data } }`, or LangChain's standard data block
 * `{ type: 'file' | 'image', source_type: 'base64', mime_type, data, metadata: { filename } }`
 * (n8n's own agent sends PDFs that way).
 */
function mediaPartFrom(part: Record<string, unknown>): ContentPart | undefined {
	const file = part.file as
		{ filename?: unknown; file_data?: unknown; file_id?: unknown } | undefined;
	if (part.type === 'file' && typeof file === 'object' && file !== null) {
		const converted: FilePart = { type: 'file', file: {} };
		if (typeof file.filename === 'string') converted.file.filename = file.filename;
		if (typeof file.file_data === 'string') converted.file.file_data = file.file_data;
		if (typeof file.file_id === 'string') converted.file.file_id = file.file_id;
		return converted.file.file_data !== undefined || converted.file.file_id !== undefined
			? converted
			: undefined;
	}
	const mimeType =
		typeof part.mime_type === 'string'
			? part.mime_type
			: typeof part.mimeType === 'string'
				? part.mimeType
				: undefined;
	const dataUrl =
		part.source_type === 'base64' && typeof part.data === 'string' && mimeType
			? `data:${mimeType};base64,${part.data}`
			: undefined;
	const url =
		dataUrl ?? (part.source_type === 'url' && typeof part.url === 'string' ? part.url : undefined);
	if (url === undefined) return undefined;
	if (part.type === 'image') return { type: 'image_url', image_url: { url } };
	const metadata = part.metadata as { filename?: unknown } | undefined;
	return {
		type: 'file',
		file: {
			...(typeof metadata?.filename === 'string' ? { filename: metadata.filename } : {}),
			file_data: url,
		},
	};
}

/**
 * The text of a LangChain message content: a string, or the strings and `text` blocks of a
 * block list (`text_delta` in streamed chunks; tool_use, thinking, images … skipped). Absent:
 * empty; any other value as JSON.
 */
export function langChainText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content))
		return content === undefined || content === null ? '' : JSON.stringify(content);
	let text = '';
	for (const block of content as Array<{ type?: unknown; text?: unknown } | string>) {
		if (typeof block === 'string') text += block;
		else if (
			(block?.type === 'text' || block?.type === 'text_delta') &&
			typeof block.text === 'string'
		)
			text += block.text;
	}
	return text;
}

function parseArguments(text: string): Record<string, unknown> {
	try {
		const parsed: unknown = JSON.parse(text);
		return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
			? (parsed as Record<string, unknown>)
			: {};
	} catch {
		return {};
	}
}

function messageClasses(): MessageClasses {
	if (cachedClasses) return cachedClasses;
	try {
		cachedClasses = createRequire(__filename)('@langchain/core/messages') as MessageClasses;
		return cachedClasses;
	} catch (error) {
		throw new ToolbridgeError(
			'LANGCHAIN_UNAVAILABLE',
			'Saving to chat memory needs @langchain/core (installed with n8n); it could not be loaded.',
			{
				cause: error,
			},
		);
	}
}
