/**
 * Google's `generateContent` wire format, for the loopback fake (`fake-chat-server.ts`, Gemini
 * API: `POST {host}/v1beta/models/{model}:streamGenerateContent?alt=sse` or `:generateContent`)
 * and for the Vertex AI nock (`fake-vertex-ai.ts`, same JSON, other framing).
 *
 * As Google documents and sends it:
 * - a response is a `GenerateContentResponse`: `candidates[0].content` (`role: 'model'`, `parts`:
 *   `{ text }` or `{ functionCall: { name, args } }` — the whole call in one part, never split),
 *   `finishReason` (`STOP` also after a function call, `MAX_TOKENS`, `SAFETY` …) on the last
 *   chunk only, `usageMetadata` (`promptTokenCount`, `candidatesTokenCount`, `totalTokenCount`,
 *   cumulative: every chunk carries the counts so far), `modelVersion` and `responseId`;
 * - streamed with `?alt=sse` (Gemini API): each response as `data: <json>\r\n\r\n`, no `[DONE]`;
 * - streamed without it (Vertex AI's `streamGenerateContent`): one JSON array of responses, its
 *   elements separated by `,\r\n`;
 * - errors: `{"error":{"code":404,"message":"…","status":"NOT_FOUND"}}` with the HTTP status.
 *
 * ```ts
 * const server = await startFakeChatServer({
 *   respond: (request) => geminiReply(request, [{ functionCall: { name: 'add', args: { a: 1 } } }]),
 * });
 * ```
 */
import type { FakeReply, FakeRequest } from '../fake-chat-server';

/** One part of the model's content. */
export type GeminiPart =
	{ text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

export interface GeminiReplyOptions {
	/** Reported as `modelVersion` (default: the model named in the request path, else `gemini-fake`). */
	modelVersion?: string;
	/** Characters per streamed text chunk (default 8). */
	chunkSize?: number;
	/** Token counts of the whole answer (default: 20 prompt, output from the content length). */
	usage?: { promptTokenCount: number; candidatesTokenCount: number };
	/** Default `STOP`. */
	finishReason?: string;
}

/** Pieces of `size` code points. */
function split(text: string, size: number): string[] {
	const points = Array.from(text);
	const pieces: string[] = [];
	for (let start = 0; start < points.length; start += size)
		pieces.push(points.slice(start, start + size).join(''));
	return pieces.length > 0 ? pieces : [''];
}

/** The model id in a `…/models/{model}:{method}` path. */
export function geminiModelInPath(path: string): string | undefined {
	return /\/models\/([^/:?]+):/.exec(path)?.[1];
}

/**
 * The responses of one answer, as a stream sends them: text parts in pieces, a function call
 * whole, the finish reason on the last, cumulative usage on each.
 */
export function geminiResponses(
	parts: GeminiPart[],
	options: GeminiReplyOptions & { modelVersion: string },
): Array<Record<string, unknown>> {
	const size = options.chunkSize ?? 8;
	const pieces = parts.flatMap((part): GeminiPart[] =>
		'text' in part ? split(part.text, size).map((text) => ({ text })) : [part],
	);
	const length = JSON.stringify(parts).length;
	const promptTokenCount = options.usage?.promptTokenCount ?? 20;
	const outputTokens = options.usage?.candidatesTokenCount ?? Math.max(1, Math.ceil(length / 4));
	return pieces.map((part, index) => {
		const last = index === pieces.length - 1;
		const candidatesTokenCount = Math.max(
			1,
			Math.round((outputTokens * (index + 1)) / pieces.length),
		);
		return {
			candidates: [
				{
					content: { parts: [part], role: 'model' },
					...(last ? { finishReason: options.finishReason ?? 'STOP' } : {}),
					index: 0,
				},
			],
			usageMetadata: {
				promptTokenCount,
				candidatesTokenCount,
				totalTokenCount: promptTokenCount + candidatesTokenCount,
				promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokenCount }],
			},
			modelVersion: options.modelVersion,
			responseId: 'fake-response-1',
		};
	});
}

/** One non-streamed `GenerateContentResponse` holding all `parts`. */
export function geminiResponse(
	parts: GeminiPart[],
	options: GeminiReplyOptions & { modelVersion: string },
): Record<string, unknown> {
	const streamed = geminiResponses(parts, { ...options, chunkSize: Number.MAX_SAFE_INTEGER });
	const last = streamed.at(-1)!;
	return {
		...last,
		candidates: [{ ...(last.candidates as object[])[0], content: { parts, role: 'model' } }],
	};
}

/**
 * Answer a Gemini API request with these parts: an SSE stream for `:streamGenerateContent?alt=sse`,
 * else one JSON response.
 */
export function geminiReply(
	request: Pick<FakeRequest, 'path'>,
	parts: GeminiPart[],
	options: GeminiReplyOptions = {},
): FakeReply {
	const resolved = {
		...options,
		modelVersion: options.modelVersion ?? geminiModelInPath(request.path) ?? 'gemini-fake',
	};
	if (request.path.includes(':streamGenerateContent')) {
		return {
			headers: { 'Content-Type': 'text/event-stream' },
			rawSse: geminiResponses(parts, resolved)
				.map((response) => `data: ${JSON.stringify(response)}\r\n\r\n`)
				.join(''),
		};
	}
	return {
		headers: { 'Content-Type': 'application/json; charset=UTF-8' },
		rawSse: JSON.stringify(geminiResponse(parts, resolved)),
	};
}

/** A Google API error body, e.g. `geminiError(404, 'NOT_FOUND', 'models/x is not found')`. */
export function geminiError(code: number, status: string, message: string): object {
	return { error: { code, message, status } };
}

/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are arbitrary JSON */

/** The `functionDeclarations` of a request's tools, by name. */
export function geminiFunctionDeclarations(
	body: any,
): Map<string, { description?: string; parameters?: any }> {
	const declarations = new Map<string, { description?: string; parameters?: unknown }>();
	for (const tool of body?.tools ?? [])
		for (const declaration of tool?.functionDeclarations ?? [])
			declarations.set(declaration.name, {
				description: declaration.description,
				parameters: declaration.parameters,
			});
	return declarations;
}

/** The `functionResponse` parts of a request's contents. */
export function geminiFunctionResponses(body: any): Array<{ name: string; response: any }> {
	return (body?.contents ?? []).flatMap((content: any) =>
		(content?.parts ?? [])
			.filter((part: any) => part?.functionResponse)
			.map((part: any) => part.functionResponse),
	);
}

/** The `functionCall` parts of a request's model turns. */
export function geminiFunctionCalls(body: any): Array<{ name: string; args: any }> {
	return (body?.contents ?? [])
		.filter((content: any) => content?.role === 'model')
		.flatMap((content: any) =>
			(content?.parts ?? [])
				.filter((part: any) => part?.functionCall)
				.map((part: any) => part.functionCall),
		);
}
