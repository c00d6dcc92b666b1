import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';
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
 * What the model reads from a node's output items: `JSON.stringify(items.map(i => i.json))`
 * like n8n, except that binary attachments are described (name, type, size) rather than
 * dumped or dropped, binary-only output becomes a sentence, and text beyond `maxLength` is cut
 * with a note saying how much was left out.
 */
export function formatToolOutput(
	items: readonly INodeExecutionData[],
	maxLength = DEFAULT_MAX_OUTPUT_LENGTH,
): string {
	const binaries = items.flatMap((item, index) =>
		Object.entries(item.binary ?? {}).map(
			([key, binary]) => `item ${index}: ${describeBinary(key, binary)}`,
		),
	);
	const jsonItems = items.map((item) => item.json ?? {});
	const onlyBinary =
		binaries.length > 0 && jsonItems.every((json) => Object.keys(json).length === 0);
	let text: string;
	if (items.length === 0) text = '[]';
	else if (onlyBinary)
		text = `The tool produced binary data only, which is not shown here: ${binaries.join('; ')}.`;
	else {
		text = JSON.stringify(jsonItems);
		if (binaries.length > 0) text += `\n(Binary data not shown: ${binaries.join('; ')}.)`;
	}
	return truncateText(text, maxLength);
}
