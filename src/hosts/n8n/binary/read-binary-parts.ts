import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import type { ContentPart } from '../../../chat/types';
import { BinaryInputError } from '../../../errors/binary-input-error';
import { mediaNote } from '../../../langchain/media-notes';

/** The node's "Binary Input" option: which of the item's files go to the model with the prompt. */
export type BinaryInputMode = 'none' | 'images' | 'imagesAndDocuments';

/** The options of the node's "Options" collection this module reads. */
export interface BinaryInputOptions {
	binaryInput?: BinaryInputMode;
	/** Comma-separated binary property names; empty: every binary property of the item. */
	binaryPropertyNames?: string;
	/** Per file, in MB (default {@link defaultMaxBinaryMb}); 0: no limit of this node's (the provider's own still applies). */
	maxBinaryMb?: number;
}

/** "Max Binary Size (MB)" when the option is not set. */
export const defaultMaxBinaryMb = 20;

/** Image types every vision model behind OpenAI-compatible APIs takes. */
const imageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const pdfType = 'application/pdf';

/** The prompt as the model gets it, and `[DEBUG]` lines saying what was sent or skipped. */
export interface BinaryPrompt {
	/** The prompt text alone when no file goes with it; else `[text, …files]` (no text part for a blank prompt). */
	prompt: string | ContentPart[];
	/** Without file contents: kind, name, type and size only. */
	notes: string[];
}

/**
 * The item's prompt with its files ("Binary Input"): images (PNG, JPEG, GIF, WebP) as
 * `image_url` parts, each after a `[image: name]` note, and with "Images and Documents" PDFs
 * as `file` parts. Bytes come from `helpers.getBinaryDataBuffer`, so files kept by n8n on
 * disk or in S3 work too. With "Binary Property Names" empty every binary property is looked
 * at and other types are skipped (with a note); a property named there must exist and hold a
 * type that can go.
 *
 * @throws {BinaryInputError} `BINARY_TOO_LARGE` for a file over "Max Binary Size (MB)";
 *   `BINARY_PROPERTY_MISSING` or `BINARY_UNSUPPORTED_TYPE` for a named property.
 * @throws what n8n's `getNodeParameter` and `getBinaryDataBuffer` throw.
 */
export async function readBinaryPrompt(
	context: IExecuteFunctions,
	itemIndex: number,
	prompt: string,
): Promise<BinaryPrompt> {
	const options = context.getNodeParameter('options', itemIndex, {}) as BinaryInputOptions;
	const mode = options.binaryInput ?? 'none';
	if (mode === 'none') return { prompt, notes: [] };
	const binary = context.getInputData()[itemIndex]?.binary ?? {};
	const named = parsePropertyNames(options.binaryPropertyNames);
	const limitMb = options.maxBinaryMb ?? defaultMaxBinaryMb;
	const limitBytes = limitMb > 0 ? limitMb * 1024 * 1024 : Infinity;
	const parts: ContentPart[] = [];
	const notes: string[] = [];

	for (const property of named ?? Object.keys(binary)) {
		const data = binary[property];
		if (!data) {
			throw new BinaryInputError(
				'BINARY_PROPERTY_MISSING',
				`The item has no binary property "${property}" (it has: ${Object.keys(binary).join(', ') || 'none'}).`,
				{
					property,
				},
			);
		}
		const mimeType = normalizeMimeType(data.mimeType);
		const kind = imageTypes.has(mimeType)
			? 'image'
			: mimeType === pdfType && mode === 'imagesAndDocuments'
				? 'file'
				: undefined;
		const name = data.fileName ?? property;
		if (!kind) {
			const allowed =
				mode === 'imagesAndDocuments'
					? 'PNG, JPEG, GIF and WebP images, and PDFs'
					: 'PNG, JPEG, GIF and WebP images (PDFs with "Binary Input" set to "Images and Documents")';
			if (named) {
				throw new BinaryInputError(
					'BINARY_UNSUPPORTED_TYPE',
					`Binary property "${property}" holds "${name}" of type ${mimeType || 'unknown'}; the model can be sent ${allowed}.`,
					{
						property,
					},
				);
			}
			notes.push(
				`[DEBUG] Binary input: skipped "${name}" in property "${property}" (${mimeType || 'unknown type'}): only ${allowed} are sent`,
			);
			continue;
		}
		// Checked before reading when n8n knows the size, so a huge file is never loaded.
		if (typeof data.bytes === 'number') assertWithinLimit(property, name, data.bytes, limitBytes);
		const buffer = await context.helpers.getBinaryDataBuffer(itemIndex, property);
		assertWithinLimit(property, name, buffer.length, limitBytes);
		const dataUrl = `data:${mimeType};base64,${buffer.toString('base64')}`;
		if (kind === 'image')
			parts.push(
				{ type: 'text', text: mediaNote('image', name) },
				{ type: 'image_url', image_url: { url: dataUrl } },
			);
		else parts.push({ type: 'file', file: { filename: name, file_data: dataUrl } });
		notes.push(
			`[DEBUG] Binary input: ${kind === 'image' ? 'image' : 'document'} "${name}" from property "${property}" (${mimeType}, ${formatBytes(buffer.length)})`,
		);
	}

	if (parts.length === 0) {
		if (Object.keys(binary).length === 0)
			notes.push('[DEBUG] Binary input: the item has no binary data; the prompt goes alone');
		return { prompt, notes };
	}
	// Providers refuse an empty text part (Anthropic's "text content blocks must be non-empty").
	return {
		prompt: prompt.trim() === '' ? parts : [{ type: 'text', text: prompt }, ...parts],
		notes,
	};
}

/** The names of "Binary Property Names", or `undefined` when the option is empty (every property). */
function parsePropertyNames(text: string | undefined): string[] | undefined {
	const names = (text ?? '')
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name !== '');
	return names.length > 0 ? [...new Set(names)] : undefined;
}

/** `image/JPEG; charset=…` → `image/jpeg`; the non-standard `image/jpg` → `image/jpeg`. */
function normalizeMimeType(mimeType: IBinaryData['mimeType'] | undefined): string {
	const type = (mimeType ?? '').split(';')[0].trim().toLowerCase();
	return type === 'image/jpg' ? 'image/jpeg' : type;
}

function assertWithinLimit(
	property: string,
	name: string,
	bytes: number,
	limitBytes: number,
): void {
	if (bytes <= limitBytes) return;
	throw new BinaryInputError(
		'BINARY_TOO_LARGE',
		`Binary property "${property}" ("${name}") is ${formatBytes(bytes)}, more than the ${formatBytes(limitBytes)} "Max Binary Size (MB)" allows per file.`,
		{ property, bytes, limitBytes },
	);
}

function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
