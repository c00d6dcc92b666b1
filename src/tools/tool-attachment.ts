/**
 * A file a tool returned that a model or an MCP client can take as content, beside the text
 * observation: an image (PNG, JPEG, GIF, WebP) or a sound (WAV, MP3, …). Plain JSON: the
 * bytes are base64 text, so an observation (and the agent state that keeps images for a
 * vision model) stays serialisable.
 */
export interface ToolAttachment {
	kind: 'image' | 'audio';
	/** Normalised media type (`image/png`, `audio/mpeg`). */
	mimeType: string;
	/** The bytes, base64-encoded (no `data:` prefix). */
	data: string;
	/** Its file name, when the node gave one; else the binary property's name. */
	name: string;
	/** Size of the decoded bytes. */
	bytes: number;
}

/** How many attachments, and how large, one observation may carry. */
export interface AttachmentLimits {
	/** Attachments per tool result; the rest are named in a note. Default {@link DEFAULT_MAX_ATTACHMENTS}. */
	maxAttachments?: number;
	/** Decoded bytes per attachment; larger files are named in a note. Default {@link DEFAULT_MAX_ATTACHMENT_BYTES}. */
	maxAttachmentBytes?: number;
}

/** Default cap on attachments per tool result. */
export const DEFAULT_MAX_ATTACHMENTS = 4;

/** Default cap on one attachment's size: 5 MiB, Anthropic's limit for one image. */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

/** Image types every vision model behind OpenAI-compatible APIs takes, and MCP clients show. */
const imageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Audio types MCP clients play; non-standard aliases are normalised first. */
const audioTypes = new Set([
	'audio/wav',
	'audio/mpeg',
	'audio/ogg',
	'audio/flac',
	'audio/webm',
	'audio/mp4',
	'audio/aac',
]);

const aliases: Readonly<Record<string, string>> = {
	'image/jpg': 'image/jpeg',
	'audio/x-wav': 'audio/wav',
	'audio/wave': 'audio/wav',
	'audio/vnd.wave': 'audio/wav',
	'audio/mp3': 'audio/mpeg',
	'audio/x-flac': 'audio/flac',
	'audio/x-m4a': 'audio/mp4',
	'audio/m4a': 'audio/mp4',
};

/** `image/JPEG; charset=…` → `image/jpeg`; non-standard aliases (`image/jpg`, `audio/x-wav`) → the standard type. */
export function normalizeMimeType(mimeType: string | undefined): string {
	const type = (mimeType ?? '').split(';')[0].trim().toLowerCase();
	return aliases[type] ?? type;
}

/** Whether a file of this (normalised) type can be an attachment, and as what. */
export function attachmentKindOf(mimeType: string): ToolAttachment['kind'] | undefined {
	if (imageTypes.has(mimeType)) return 'image';
	if (audioTypes.has(mimeType)) return 'audio';
	return undefined;
}

/** `1536` → `1.5 KB`: sizes in notes the model reads. */
export function formatByteSize(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The note that replaces an attachment that did not fit the limits. */
export function droppedAttachmentNote(
	attachment: Pick<ToolAttachment, 'kind' | 'name' | 'bytes'>,
	reason: string,
): string {
	return `[${attachment.kind} "${attachment.name}" (${formatByteSize(attachment.bytes)}) not attached: ${reason}]`;
}

/** Why an attachment over the count is left out. */
export function overCountReason(maxCount: number): string {
	return `only ${maxCount} ${maxCount === 1 ? 'file is' : 'files are'} attached per tool result`;
}

/** Why an attachment over the size is left out. */
export function overSizeReason(maxBytes: number): string {
	return `over the ${formatByteSize(maxBytes)} limit per file`;
}

/**
 * The attachments within the limits, in order, and one note per attachment left out (too
 * large, or over the count). The attachments given are not changed.
 */
export function boundAttachments(
	attachments: readonly ToolAttachment[],
	limits: AttachmentLimits = {},
): { attachments: ToolAttachment[]; notes: string[] } {
	const maxCount = limits.maxAttachments ?? DEFAULT_MAX_ATTACHMENTS;
	const maxBytes = limits.maxAttachmentBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES;
	const kept: ToolAttachment[] = [];
	const notes: string[] = [];
	for (const attachment of attachments) {
		if (attachment.bytes > maxBytes)
			notes.push(droppedAttachmentNote(attachment, overSizeReason(maxBytes)));
		else if (kept.length >= maxCount)
			notes.push(droppedAttachmentNote(attachment, overCountReason(maxCount)));
		else kept.push(attachment);
	}
	return { attachments: kept, notes };
}
