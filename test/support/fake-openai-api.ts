/**
 * A loopback OpenAI-compatible API for n8n's own OpenAI sub-nodes (Embeddings OpenAI, OpenAI Chat
 * Model) pointed at it through their credential's base URL: `POST /v1/embeddings` with
 * deterministic vectors (known topics map to orthogonal axes, so a search finds exactly the
 * document of its topic) and `POST /v1/chat/completions`, streamed or not, answering with
 * `answer(request)`. Built on {@link startFakeChatServer}; every request is recorded.
 */
import {
	startFakeChatServer,
	textReply,
	type FakeChatServer,
	type FakeRequest,
} from './fake-chat-server';

/** The topics the fake's embeddings tell apart: a text's vector counts each topic's words. */
const topics: string[][] = [
	['banana', 'bananas', 'yellow', 'fruit'],
	['paris', 'france', 'capital'],
	['zebra', 'zebras', 'stripes'],
	['tax', 'taxes', 'deduction'],
];

/** The fake's embedding of a text: one axis per topic, one for anything else; unit length. */
export function topicEmbedding(text: string): number[] {
	const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
	const vector = topics.map((topic) => words.filter((word) => topic.includes(word)).length);
	vector.push(vector.some((count) => count > 0) ? 0 : 1);
	const length = Math.hypot(...vector);
	return vector.map((count) => count / length);
}

/** Options of {@link startFakeOpenAiApi}. */
export interface FakeOpenAiApiOptions {
	/** The assistant's text for a chat request (default: echoes the last user message). */
	answer?: (request: FakeRequest) => string;
}

/** Starts the fake on 127.0.0.1 (`baseUrl` ends with `/v1`). */
export function startFakeOpenAiApi(options: FakeOpenAiApiOptions = {}): Promise<FakeChatServer> {
	const answer =
		options.answer ??
		((request: FakeRequest) =>
			String(
				(request.body.messages as Array<{ role: string; content: unknown }>)
					.filter((message) => message.role === 'user')
					.at(-1)?.content ?? '',
			));
	return startFakeChatServer({
		respond: (request) => {
			if (request.path.endsWith('/embeddings')) {
				const inputs: string[] = Array.isArray(request.body.input)
					? request.body.input
					: [request.body.input];
				// The official client asks for base64 (little-endian float32) unless told otherwise.
				const encode = (vector: number[]): number[] | string =>
					request.body.encoding_format === 'base64'
						? Buffer.from(new Float32Array(vector).buffer).toString('base64')
						: vector;
				return {
					json: {
						object: 'list',
						model: request.body.model,
						data: inputs.map((input, index) => ({
							object: 'embedding',
							index,
							embedding: encode(topicEmbedding(String(input))),
						})),
						usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
					},
				};
			}
			const text = answer(request);
			if (request.body.stream) return textReply(text);
			return {
				json: {
					id: 'chatcmpl-fake',
					object: 'chat.completion',
					created: 1,
					model: request.body.model,
					choices: [
						{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
					],
					usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
				},
			};
		},
	});
}
