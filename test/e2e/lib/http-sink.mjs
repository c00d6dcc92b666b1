// @ts-check
/**
 * An external side effect for tools: a loopback HTTP server that records every POST it gets.
 * A tool that calls it (n8n's HTTP Request node as a tool) leaves one record per real run, so a
 * scenario can prove a tool ran exactly once, whatever n8n's execution log says.
 *
 * `POST /record` with JSON `{ text }` → `{ recorded: text, digest: sha256(text), count }`,
 * where `count` is how many times this exact text has been recorded so far.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

/**
 * SHA-256 hex digest of a text (what the sink answers).
 * @param {string} text
 * @returns {string}
 */
export function sinkDigest(text) {
	return createHash('sha256').update(`sink:${text}`, 'utf8').digest('hex');
}

/**
 * Start the sink on 127.0.0.1 with a free port.
 * @returns {Promise<{ url: string, records: Array<{ text: string, at: number }>, countOf: (text: string) => number, close: () => Promise<void> }>}
 */
export async function startHttpSink() {
	/** @type {Array<{ text: string, at: number }>} */
	const records = [];
	const countOf = (/** @type {string} */ text) =>
		records.filter((record) => record.text === text).length;
	const server = createServer(async (request, response) => {
		const pieces = [];
		for await (const piece of request) pieces.push(piece);
		let text = '';
		try {
			text = String(JSON.parse(Buffer.concat(pieces).toString('utf8')).text ?? '');
		} catch {
			response.writeHead(400, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ error: 'expected JSON { text }' }));
			return;
		}
		records.push({ text, at: Date.now() });
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end(
			JSON.stringify({ recorded: text, digest: sinkDigest(text), count: countOf(text) }),
		);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		url: `http://127.0.0.1:${port}/record`,
		records,
		countOf,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/**
 * n8n's HTTP Request node as a tool that records `$fromAI('text')` at the sink. Tool name
 * `Record_Text` (from the node name).
 * @param {(name: string, type: string, typeVersion: number, parameters: Record<string, unknown>) => any} node the workflows.mjs builder
 * @param {string} url the sink's URL
 * @param {string} [name] node name
 * @returns {any} a workflow node
 */
export function recordTextTool(node, url, name = 'Record Text') {
	return node(name, 'n8n-nodes-base.httpRequestTool', 4.2, {
		method: 'POST',
		url,
		sendBody: true,
		contentType: 'json',
		specifyBody: 'keypair',
		bodyParameters: {
			parameters: [
				{ name: 'text', value: "={{ $fromAI('text', 'The exact text to record', 'string') }}" },
			],
		},
		options: {},
		descriptionType: 'manual',
		toolDescription:
			'Records a text in the audit log and returns its receipt digest. Call it once per text.',
	});
}
