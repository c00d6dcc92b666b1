import { completionToChunk } from '../completion-to-chunk';

/**
 * A whole JSON `chat.completion` body (a server that ignored `stream: true`) re-framed as
 * one SSE event, so it takes the stream's path. A body that is not JSON goes through as
 * one event all the same: the parser turns it into an error part.
 */
export function completionAsSse(body: Buffer): Uint8Array {
	const text = body.toString('utf8');
	let framed: string;
	try {
		framed = `data: ${JSON.stringify(completionToChunk(JSON.parse(text)))}\n\n`;
	} catch {
		framed = `data: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
	}
	return Buffer.from(framed, 'utf8');
}
