import type { INodeExecutionData } from 'n8n-workflow';
import {
	attachmentKindOf,
	DEFAULT_MAX_ATTACHMENT_BYTES,
	DEFAULT_MAX_ATTACHMENTS,
	droppedAttachmentNote,
	normalizeMimeType,
	overCountReason,
	overSizeReason,
	type AttachmentLimits,
	type ToolAttachment,
} from './tool-attachment';

/**
 * Reads the bytes of a binary that n8n keeps outside the item (`binary.id` set: filesystem,
 * database or S3 mode), e.g. through `helpers.getBinaryStream` + `helpers.binaryToBuffer`.
 */
export type StoredBinaryReader = (binaryId: string) => Promise<Buffer>;

/** Options of {@link nodeOutputAttachments}. */
export interface NodeOutputAttachmentOptions extends AttachmentLimits {
	/** Reads binaries kept outside the item; without one they are named in a note. */
	readStored?: StoredBinaryReader;
}

/** What {@link nodeOutputAttachments} found. */
export interface NodeOutputAttachments {
	attachments: ToolAttachment[];
	/** One line per image or sound left out (too large, over the count, unreadable). */
	notes: string[];
}

/**
 * The images (PNG, JPEG, GIF, WebP) and sounds (WAV, MP3, OGG, FLAC, WebM, M4A, AAC) among
 * a node's output items' binary data, as attachments, in item and property order. Bounded
 * before anything is read: at most `maxAttachments`, each at most `maxAttachmentBytes` (a
 * stored file whose size n8n recorded is not read when it is over). Other types are left to
 * the text observation, which describes every binary. Never throws: a file that cannot be
 * read becomes a note.
 */
export async function nodeOutputAttachments(
	items: readonly INodeExecutionData[],
	options: NodeOutputAttachmentOptions = {},
): Promise<NodeOutputAttachments> {
	const maxCount = options.maxAttachments ?? DEFAULT_MAX_ATTACHMENTS;
	const maxBytes = options.maxAttachmentBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES;
	const attachments: ToolAttachment[] = [];
	const notes: string[] = [];
	for (const item of items) {
		for (const [property, binary] of Object.entries(item.binary ?? {})) {
			const mimeType = normalizeMimeType(binary.mimeType);
			const kind = attachmentKindOf(mimeType);
			if (!kind) continue;
			const name = binary.fileName ?? property;
			const storedId = binary.id;
			const knownBytes = storedId !== undefined ? binary.bytes : base64Bytes(binary.data);
			const candidate = { kind, name, bytes: knownBytes ?? 0 };
			if (knownBytes !== undefined && knownBytes > maxBytes) {
				notes.push(droppedAttachmentNote(candidate, overSizeReason(maxBytes)));
				continue;
			}
			if (attachments.length >= maxCount) {
				notes.push(droppedAttachmentNote(candidate, overCountReason(maxCount)));
				continue;
			}
			const data =
				storedId !== undefined ? await readStored(storedId, options.readStored) : binary.data;
			if (typeof data !== 'string') {
				notes.push(`[${kind} "${name}" not attached: ${data.error}]`);
				continue;
			}
			const bytes = base64Bytes(data);
			if (bytes > maxBytes) {
				notes.push(droppedAttachmentNote({ ...candidate, bytes }, overSizeReason(maxBytes)));
				continue;
			}
			attachments.push({ kind, mimeType, data, name, bytes });
		}
	}
	return { attachments, notes };
}

async function readStored(
	binaryId: string,
	reader: StoredBinaryReader | undefined,
): Promise<string | { error: string }> {
	if (!reader) return { error: 'n8n stores it outside the item, where this host cannot read it' };
	try {
		return (await reader(binaryId)).toString('base64');
	} catch (error) {
		return { error: `reading it failed (${(error as Error)?.message ?? String(error)})` };
	}
}

/** Decoded size of base64 text (padding and whitespace-free, as n8n writes it). */
function base64Bytes(data: string): number {
	const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
	return Math.floor((data.length * 3) / 4) - padding;
}
