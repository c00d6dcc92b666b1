/**
 * Bytes → text. Uses one streaming `TextDecoder`, so a multi-byte UTF-8 character cut
 * between two network chunks is decoded whole. Invalid bytes become U+FFFD.
 */
export async function* decodeUtf8Stream(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
	const decoder = new TextDecoder('utf-8');
	for await (const chunk of chunks) {
		const text = decoder.decode(chunk, { stream: true });
		if (text !== '') yield text;
	}
	const rest = decoder.decode();
	if (rest !== '') yield rest;
}
