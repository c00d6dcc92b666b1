import type { ChatMessage, ContentPart } from '../chat/types';

/**
 * The short text that stands for a file in a prompt: `[image: photo.png]`, `[file: a.pdf]`.
 * The prompt sends it before each image (the model learns the file's name, which it can
 * then refer to), and chat memory keeps it instead of the file.
 */
export function mediaNote(kind: 'image' | 'file', name: string | undefined): string {
	return name ? `[${kind}: ${name}]` : `[${kind}]`;
}

const imageNotePattern = /^\[image(?::[^\]\n]*)?\]$/;

/**
 * The messages as chat memory keeps them: inline files (`data:` images, file parts) in user
 * messages become their notes (`[image: photo.png]`), so a memory does not store megabytes of
 * base64 for every turn, and a user message left with text only becomes one string (as n8n's
 * own agent saves it). Images by `https:` URL stay: they are short and still reachable. An
 * image right after its note (as the prompt sends it) is dropped, as the note already says it.
 * Other messages are returned as they are.
 */
export function withMediaNotes(messages: readonly ChatMessage[]): ChatMessage[] {
	return messages.map((message) => {
		if (
			message.role !== 'user' ||
			typeof message.content === 'string' ||
			!message.content.some(isInlineMedia)
		)
			return message;
		const parts: ContentPart[] = [];
		for (const part of message.content) {
			if (!isInlineMedia(part)) parts.push(part);
			else if (part.type === 'file')
				parts.push({ type: 'text', text: mediaNote('file', part.file.filename) });
			else if (!isImageNote(parts.at(-1)))
				parts.push({ type: 'text', text: mediaNote('image', undefined) });
		}
		const content = parts.every((part) => part.type === 'text')
			? parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n')
			: parts;
		return { ...message, content };
	});
}

function isInlineMedia(part: ContentPart): boolean {
	if (part.type === 'file') return true;
	return part.type === 'image_url' && part.image_url.url.startsWith('data:');
}

function isImageNote(part: ContentPart | undefined): boolean {
	return part?.type === 'text' && imageNotePattern.test(part.text);
}
