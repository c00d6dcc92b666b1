import type { IExecuteFunctions } from 'n8n-workflow';
import type { ChatMessage } from '../../../chat/types';
import { readBinaryPrompt } from '../binary/read-binary-parts';
import type { EngineItem } from './engine-item';

/** An item as the EngineRequest's metadata stores it: `promptFiles` when its prompt's files were left out. */
export type StoredEngineItem = EngineItem & { promptFiles?: true };

/**
 * The items as the EngineRequest's metadata stores them: each prompt without its files
 * ("Binary Input"), only its text, marked `promptFiles`. n8n stores the metadata with the
 * execution at every re-entry (and while a person reviews a tool call), where a 5 MB image
 * would be stored again each round; the item's binary data is still there at the next entry,
 * where {@link restorePromptFiles} reads it again. The items given are not changed.
 */
export function withoutPromptFiles(items: readonly EngineItem[]): StoredEngineItem[] {
	return items.map((item) => {
		const prompt = item.state?.messages[item.state.turnStart];
		if (
			prompt?.role !== 'user' ||
			typeof prompt.content === 'string' ||
			prompt.content.every((part) => part.type === 'text')
		)
			return item;
		// `readBinaryPrompt` writes [prompt text?, (image note, image | file)…]: a first text part
		// right before an image is that image's note, so the prompt was blank.
		const [first, second] = prompt.content;
		const text = first?.type === 'text' && second?.type !== 'image_url' ? first.text : '';
		const messages = [...item.state.messages];
		messages[item.state.turnStart] = { ...prompt, content: text };
		return { ...item, state: { ...item.state, messages }, promptFiles: true };
	});
}

/**
 * The items as the EngineRequest's metadata stores them, without the images tools returned
 * (`state.toolImages`, and attachments of results still waiting for their turn): the model was
 * shown them in the call that followed their tool turn, in the entry where they came back; the
 * tool messages keep the lines naming them. The bytes stay in the tool nodes' runs, which n8n
 * keeps anyway, instead of a copy in every stored re-entry. The items given are not changed.
 */
export function withoutToolImages<Item extends EngineItem>(items: readonly Item[]): Item[] {
	return items.map((item) => {
		const hasAttachments = item.results.some((result) => result.observation.attachments);
		if (!item.state?.toolImages && !hasAttachments) return item;
		const { toolImages: _dropped, ...state } = item.state;
		const results = item.results.map((result) => {
			if (!result.observation.attachments) return result;
			const { attachments: _left, ...observation } = result.observation;
			return { ...result, observation };
		});
		return { ...item, state, results };
	});
}

/**
 * Puts the files back into a stored item's prompt (see {@link withoutPromptFiles}), read again
 * from the input item's binary data, with the prompt text that was stored. Changes the item.
 *
 * @throws what `readBinaryPrompt` throws (e.g. the file is now too large).
 */
export async function restorePromptFiles(
	context: IExecuteFunctions,
	item: StoredEngineItem,
): Promise<void> {
	if (!item.promptFiles) return;
	const prompt = item.state.messages[item.state.turnStart] as Extract<
		ChatMessage,
		{ role: 'user' }
	>;
	const text = typeof prompt.content === 'string' ? prompt.content : '';
	const messages = [...item.state.messages];
	messages[item.state.turnStart] = {
		...prompt,
		content: (await readBinaryPrompt(context, item.itemIndex, text)).prompt,
	};
	item.state = { ...item.state, messages };
	delete item.promptFiles;
}
