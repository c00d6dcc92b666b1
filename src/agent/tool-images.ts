import { chatServerCapabilities } from '../chat/chat-server';
import type { ChatMessage, ContentPart } from '../chat/types';
import { modelFamilies, modelFamilyFromModelId } from '../schema/model-family';
import type { ToolAttachment } from '../tools/tool-attachment';
import type { AgentConfig, ToolImages } from './agent-state';
import type { ToolObservation } from '../tools/agent-tool';

/**
 * Default cap on the images a run's state keeps (decoded bytes, all tool calls together):
 * the state is plain JSON that n8n's engine driver stores at every re-entry. Past it the
 * oldest calls' images are dropped; their tool messages still name them.
 */
export const DEFAULT_MAX_STATE_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * Whether the run's model is sent the images tools return: the run's `imageInput` setting,
 * else its model family's row (`imageInput` in `modelFamilies`).
 */
export function acceptsImageInput(config: Pick<AgentConfig, 'model' | 'imageInput'>): boolean {
	return config.imageInput ?? modelFamilies[modelFamilyFromModelId(config.model)].imageInput;
}

/**
 * The state's tool images with this turn's added: the image attachments of the results, for a
 * model that takes images ({@link acceptsImageInput}; none kept otherwise, and never sounds),
 * keyed by tool call. The oldest calls' images are dropped while the total is over
 * `maxBytes`. Returns `undefined` when no image is kept.
 */
export function keepToolImages(
	kept: ToolImages | undefined,
	results: ReadonlyArray<{ toolCallId: string; observation: ToolObservation }>,
	config: Pick<AgentConfig, 'model' | 'imageInput'>,
	maxBytes = DEFAULT_MAX_STATE_IMAGE_BYTES,
): ToolImages | undefined {
	if (!acceptsImageInput(config)) return kept;
	const added: ToolImages = [];
	for (const { toolCallId, observation } of results) {
		const images = (observation.attachments ?? []).filter((file) => file.kind === 'image');
		if (images.length > 0) added.push({ toolCallId, images });
	}
	if (added.length === 0) return kept;
	const all = [...(kept ?? []), ...added];
	let total = all.reduce((sum, entry) => sum + imageBytes(entry.images), 0);
	while (all.length > 0 && total > maxBytes) total -= imageBytes(all.shift()!.images);
	return all.length > 0 ? all : undefined;
}

/**
 * The messages as the request carries them, with each kept tool image after the tool result
 * it came with: inside the `tool` message (as `[image: name]` and an `image_url` data URL) when
 * the model family takes images in tool results and the server passes them on (Anthropic
 * through OpenRouter), else in one user message after the tool turn, since Chat Completions
 * tool messages carry text only. Nothing is added for a model that does not take images. The
 * messages given are not changed.
 */
export function withToolImages(
	messages: readonly ChatMessage[],
	toolImages: ToolImages | undefined,
	config: Pick<AgentConfig, 'model' | 'imageInput' | 'server'>,
): ChatMessage[] {
	if (!toolImages || toolImages.length === 0 || !acceptsImageInput(config))
		return messages as ChatMessage[];
	const byCall = new Map(toolImages.map((entry) => [entry.toolCallId, entry.images]));
	const inToolResult =
		modelFamilies[modelFamilyFromModelId(config.model)].toolImages === 'tool-result' &&
		chatServerCapabilities(config.server).toolMessageImages;
	const result: ChatMessage[] = [];
	let pending: ContentPart[] = [];
	const flush = () => {
		if (pending.length === 0) return;
		result.push({
			role: 'user',
			content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, ...pending],
		});
		pending = [];
	};
	for (const message of messages) {
		if (message.role !== 'tool') flush();
		const images = message.role === 'tool' ? byCall.get(message.tool_call_id) : undefined;
		if (message.role !== 'tool' || !images) {
			result.push(message);
			continue;
		}
		if (inToolResult) {
			const text = typeof message.content === 'string' ? message.content : '';
			const parts: ContentPart[] =
				typeof message.content === 'string' ? [{ type: 'text', text }] : [...message.content];
			result.push({ ...message, content: [...parts, ...imageParts(images)] } as ChatMessage);
		} else {
			result.push(message);
			pending.push(...imageParts(images, message.tool_call_id));
		}
	}
	flush();
	return result;
}

function imageParts(images: readonly ToolAttachment[], toolCallId?: string): ContentPart[] {
	return images.flatMap((image): ContentPart[] => [
		{
			type: 'text',
			text: `[image: ${image.name}${toolCallId ? ` from tool call ${toolCallId}` : ''}]`,
		},
		{ type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } },
	]);
}

function imageBytes(images: readonly ToolAttachment[]): number {
	return images.reduce((sum, image) => sum + image.bytes, 0);
}
