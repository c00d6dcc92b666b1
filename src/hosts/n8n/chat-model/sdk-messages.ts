import type { ContentFile, Message, MessageContent } from '@n8n/ai-node-sdk';
import type { ChatMessage, ContentPart, ReasoningDetail, WireToolCall } from '../../../chat/types';

/**
 * Where a turn's OpenRouter `reasoning_details` travel in the SDK's messages: in
 * `providerMetadata` (of the result and of the assistant message's first block). n8n's
 * LangChain adapter turns the result's metadata into the message's `response_metadata` and
 * puts that on every tool call it hands back, so the details return with the next request.
 * A streamed turn has no metadata the adapter keeps: there they come as a `provider` content
 * block (`{ reasoning_details }`), which LangChain keeps in the message as `non_standard`.
 */
export const reasoningDetailsKey = 'reasoning_details';

/**
 * The SDK's messages as Chat Completions messages:
 * - text blocks become the content (a string, or parts when a user message also has files);
 *   files become `image_url` parts (images) or `file` parts (other documents), as `data:`
 *   URLs or the URL they came with;
 * - an assistant message's `tool-call` (and `invalid-tool-call`) blocks become `tool_calls`
 *   with their ids, its `reasoning` blocks `reasoning`, and `reasoning_details` found in any
 *   block's `providerMetadata` are sent back as they came;
 * - every `tool-result` block becomes one `tool` message answering its `toolCallId`.
 */
export function toChatMessages(messages: Message[]): ChatMessage[] {
	const wire: ChatMessage[] = [];
	messages.forEach((message, messageIndex) => {
		const results = message.content.filter((block) => block.type === 'tool-result');
		for (const result of results)
			wire.push({
				role: 'tool',
				tool_call_id: result.toolCallId,
				content: toolResultText(result.result),
			});
		if (message.role === 'tool') return;
		if (message.role === 'assistant') {
			wire.push(assistantMessage(message.content, messageIndex));
			return;
		}
		const content = userContent(message.content);
		if (content === undefined && results.length > 0) return;
		if (message.role === 'system') wire.push({ role: 'system', content: content ?? '' });
		else
			wire.push(
				message.name
					? { role: 'user', content: content ?? '', name: message.name }
					: { role: 'user', content: content ?? '' },
			);
	});
	return wire;
}

function assistantMessage(blocks: MessageContent[], messageIndex: number): ChatMessage {
	const text = blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
	const reasoning = blocks
		.flatMap((block) => (block.type === 'reasoning' ? [block.text] : []))
		.join('');
	const toolCalls: WireToolCall[] = [];
	blocks.forEach((block, blockIndex) => {
		const id = `call_${messageIndex}_${blockIndex}`;
		if (block.type === 'tool-call')
			toolCalls.push({
				id: block.toolCallId ?? id,
				type: 'function',
				function: { name: block.toolName, arguments: block.input },
			});
		else if (block.type === 'invalid-tool-call' && block.name)
			toolCalls.push({
				id: block.toolCallId ?? id,
				type: 'function',
				function: { name: block.name, arguments: block.args ?? '' },
			});
	});
	const message: Extract<ChatMessage, { role: 'assistant' }> = {
		role: 'assistant',
		content: text === '' && toolCalls.length > 0 ? null : text,
	};
	if (toolCalls.length > 0) message.tool_calls = toolCalls;
	if (reasoning !== '') message.reasoning = reasoning;
	const details = reasoningDetailsOf(blocks);
	if (details) message.reasoning_details = details;
	return message;
}

/** The first `reasoning_details` array in the blocks' `providerMetadata`, or in a `provider` block (a streamed turn's). */
function reasoningDetailsOf(blocks: MessageContent[]): ReasoningDetail[] | undefined {
	for (const block of blocks) {
		const details =
			block.type === 'provider'
				? block.value[reasoningDetailsKey]
				: block.providerMetadata?.[reasoningDetailsKey];
		if (Array.isArray(details) && details.length > 0) return details as ReasoningDetail[];
	}
	return undefined;
}

/** A system or user message's content: one string for text only, parts when files come along; undefined when there is nothing. */
function userContent(blocks: MessageContent[]): string | ContentPart[] | undefined {
	const parts: ContentPart[] = [];
	for (const block of blocks) {
		if (block.type === 'text') parts.push({ type: 'text', text: block.text });
		else if (block.type === 'file') parts.push(filePart(block));
	}
	if (parts.length === 0) return undefined;
	if (parts.every((part) => part.type === 'text'))
		return parts.map((part) => (part as { text: string }).text).join('\n');
	return parts;
}

function filePart(block: ContentFile): ContentPart {
	const metadata = block.providerMetadata ?? {};
	const mediaType =
		block.mediaType ?? (typeof metadata.mimeType === 'string' ? metadata.mimeType : undefined);
	const url =
		fileUrl(block.data, mediaType) ?? (typeof metadata.url === 'string' ? metadata.url : '');
	if (mediaType === undefined || mediaType.startsWith('image/'))
		return { type: 'image_url', image_url: { url } };
	const filename =
		typeof metadata.filename === 'string'
			? metadata.filename
			: typeof metadata.name === 'string'
				? metadata.name
				: undefined;
	return { type: 'file', file: filename ? { filename, file_data: url } : { file_data: url } };
}

/** The file's data as a URL: `data:` and http(s) URLs as they are, base64 text or bytes as a `data:` URL. */
function fileUrl(
	data: ContentFile['data'] | undefined,
	mediaType: string | undefined,
): string | undefined {
	if (data === undefined || data === null || data.length === 0) return undefined;
	if (typeof data === 'string' && /^(data:|https?:\/\/)/i.test(data)) return data;
	const base64 = typeof data === 'string' ? data : Buffer.from(data).toString('base64');
	return `data:${mediaType ?? 'application/octet-stream'};base64,${base64}`;
}

/** A tool result as the text the model reads: strings as they are, text blocks joined, anything else as JSON. */
function toolResultText(result: unknown): string {
	if (typeof result === 'string') return result;
	if (
		Array.isArray(result) &&
		result.every(
			(block) =>
				typeof block === 'object' &&
				block !== null &&
				(block as { type?: unknown }).type === 'text',
		)
	) {
		return result.map((block) => String((block as { text?: unknown }).text ?? '')).join('');
	}
	return JSON.stringify(result) ?? '';
}
