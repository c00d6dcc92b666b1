// @ts-check
/**
 * Reading a streaming webhook response (n8n's NDJSON chunks: begin, item …, end).
 */

/**
 * Read an NDJSON streaming webhook response incrementally.
 * @param {Response} response
 * @param {(chunk: any) => void} onChunk called per parsed line, as it arrives
 * @param {{ signal?: AbortSignal }} [options]
 * @returns {Promise<{ chunks: any[], ended: 'end' | 'error', error?: string }>}
 *   `ended: 'error'` when the body broke off (connection reset, abort)
 */
export async function readNdjson(response, onChunk, options = {}) {
	if (!response.body) throw new Error('the streaming response has no body');
	const decoder = new TextDecoder();
	/** @type {any[]} */
	const chunks = [];
	let buffer = '';
	const take = (/** @type {string} */ line) => {
		if (line.trim() === '') return;
		let chunk;
		try {
			chunk = JSON.parse(line);
		} catch {
			chunk = { type: 'unparsed', content: line };
		}
		chunks.push(chunk);
		onChunk(chunk);
	};
	try {
		for await (const bytes of /** @type {AsyncIterable<Uint8Array>} */ (
			/** @type {unknown} */ (response.body)
		)) {
			if (options.signal?.aborted) throw new Error('aborted by the test');
			buffer += decoder.decode(bytes, { stream: true });
			for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
				take(buffer.slice(0, newline));
				buffer = buffer.slice(newline + 1);
			}
		}
	} catch (error) {
		take(buffer);
		return { chunks, ended: 'error', error: /** @type {Error} */ (error).message };
	}
	take(buffer + decoder.decode());
	return { chunks, ended: 'end' };
}

/**
 * POST JSON to a streaming webhook of `n8n` and read its NDJSON answer as it arrives;
 * `onFirstText` runs when the first item with text does.
 * @param {{ webhook: (path: string, init: RequestInit) => Promise<Response> }} n8n
 * @param {string} path
 * @param {unknown} body
 * @param {() => void} onFirstText
 * @returns {ReturnType<typeof readNdjson>}
 * @throws {Error} on a non-2xx answer
 */
export async function postStreaming(n8n, path, body, onFirstText) {
	const response = await n8n.webhook(path, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!response.ok)
		throw new Error(
			`POST /webhook/${path}: HTTP ${response.status} ${(await response.text()).slice(0, 500)}`,
		);
	let textSeen = false;
	return readNdjson(response, (chunk) => {
		if (textSeen || chunk.type !== 'item' || typeof chunk.content !== 'string') return;
		if (chunk.content === '') return;
		textSeen = true;
		onFirstText();
	});
}
