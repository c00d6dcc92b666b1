import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { ToolObservation } from './agent-tool';
import { nodeOutputAttachments, type NodeOutputAttachmentOptions } from './node-output-attachments';
import { truncateText } from './truncate-text';

/** Default cap on the text a tool hands the model (characters). */
export const DEFAULT_MAX_OUTPUT_LENGTH = 20_000;

function describeBinary(key: string, binary: IBinaryData): string {
	const size =
		binary.fileSize ??
		(binary.data && binary.id === undefined
			? `${Math.floor((binary.data.length * 3) / 4)} bytes`
			: undefined);
	const parts = [binary.fileName, binary.mimeType, size].filter(Boolean).join(', ');
	return `"${key}"${parts ? ` (${parts})` : ''}`;
}

/**
 * What the model reads from a node's output items, made once: `JSON.stringify(items.map(i =>
 * i.json))` like n8n (with that array as `value` and `data`), except that binary attachments
 * are described (name, type, size) rather than dumped or dropped, and binary-only output
 * becomes a sentence. Not cut: the reader's output boundary caps it.
 */
export function nodeOutputObservation(items: readonly INodeExecutionData[]): ToolObservation {
	const jsonItems: IDataObject[] = new Array(items.length);
	let binaries: string[] | undefined;
	for (let index = 0; index < items.length; index++) {
		const item = items[index];
		jsonItems[index] = item.json ?? {};
		if (item.binary)
			for (const [key, binary] of Object.entries(item.binary))
				(binaries ??= []).push(`item ${index}: ${describeBinary(key, binary)}`);
	}
	if (!binaries)
		return {
			content: JSON.stringify(jsonItems),
			isError: false,
			data: jsonItems,
			value: jsonItems,
		};
	const onlyBinary = jsonItems.every((json) => Object.keys(json).length === 0);
	const content = onlyBinary
		? `The tool produced binary data only, which is not shown here: ${binaries.join('; ')}.`
		: `${JSON.stringify(jsonItems)}\n(Binary data not shown: ${binaries.join('; ')}.)`;
	return { content, isError: false, data: jsonItems };
}

/**
 * The observation of a node's output items with the images and sounds among their binary
 * data as `attachments` (see {@link nodeOutputAttachments}); one note per file left out is
 * added to the text. The observation given is not changed.
 */
export async function withNodeOutputAttachments(
	observation: ToolObservation,
	items: readonly INodeExecutionData[],
	options: NodeOutputAttachmentOptions = {},
): Promise<ToolObservation> {
	if (!items.some((item) => item.binary)) return observation;
	const { attachments, notes } = await nodeOutputAttachments(items, options);
	if (attachments.length === 0 && notes.length === 0) return observation;
	const withFiles: ToolObservation = { ...observation };
	if (attachments.length > 0) withFiles.attachments = attachments;
	if (notes.length > 0) {
		withFiles.content = `${observation.content}\n${notes.join('\n')}`;
		delete withFiles.value;
	}
	return withFiles;
}

/**
 * The text of {@link nodeOutputObservation}, cut at `maxLength` with a note saying how much
 * was left out.
 */
export function formatToolOutput(
	items: readonly INodeExecutionData[],
	maxLength = DEFAULT_MAX_OUTPUT_LENGTH,
): string {
	return truncateText(nodeOutputObservation(items).content, maxLength);
}
