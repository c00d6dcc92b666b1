// @ts-check
/**
 * The model at the network edge for the replicas run: a loopback Chat Completions server
 * (streamed or not, OpenAI's wire format) that answers `answer to "<last user message>"` and
 * records the messages of every request, so the run can check what a turn's model received.
 */
import http from 'node:http';

/** @returns {Promise<{ baseUrl: string, requests: Array<Array<{ role: string, content: unknown }>>, close: () => void }>} */
export async function startFakeModel() {
	/** @type {Array<Array<{ role: string, content: unknown }>>} */
	const requests = [];
	const server = http.createServer(async (request, response) => {
		const chunks = [];
		for await (const chunk of request) chunks.push(chunk);
		const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
		const messages = Array.isArray(body.messages) ? body.messages : [];
		requests.push(messages);
		const last = [...messages].reverse().find((message) => message.role === 'user');
		const text = `answer to "${typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content)}"`;
		const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
		const base = { id: `chatcmpl-${requests.length}`, created: 0, model: body.model ?? 'fake' };
		if (!body.stream) {
			response.writeHead(200, { 'content-type': 'application/json' });
			return void response.end(
				JSON.stringify({
					...base,
					object: 'chat.completion',
					choices: [
						{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
					],
					usage,
				}),
			);
		}
		response.writeHead(200, { 'content-type': 'text/event-stream' });
		const send = (/** @type {object} */ chunk) =>
			response.write(
				`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...chunk })}\n\n`,
			);
		send({
			choices: [{ index: 0, delta: { role: 'assistant', content: text }, finish_reason: null }],
		});
		send({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
		send({ choices: [], usage });
		response.end('data: [DONE]\n\n');
	});
	await new Promise((resolvePromise) =>
		server.listen(0, '127.0.0.1', () => resolvePromise(undefined)),
	);
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, close: () => server.close() };
}
