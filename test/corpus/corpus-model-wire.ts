/**
 * The wire formats the corpus's scripted model speaks, chosen by the request's path: OpenAI
 * Chat Completions (OpenAI, OpenRouter, Groq, DeepSeek, xAI, Mistral …), Anthropic Messages,
 * the Gemini API's generateContent, Ollama's `/api/chat`. Each reads a request's offered tools,
 * whether a tool result came back and the user's text, and writes one turn (a tool call or a
 * text answer) the way that provider sends it, streamed when the request asks. Gemini and
 * Anthropic replies come from the provider fakes of test/support.
 */
import {
	anthropicReply,
	anthropicToolResults,
	anthropicToolsByName,
} from '../support/fake-anthropic';
import type { FakeReply } from '../support/fake-chat-server';
import {
	geminiFunctionDeclarations,
	geminiFunctionResponses,
	geminiReply,
} from '../support/provider-fakes/fake-gemini';

/** One answer of the model: status, headers and body. */
export interface ModelReply {
	status: number;
	headers: Record<string, string>;
	body: string;
}

/** One turn of the model: a tool call, or the text answer. */
export type ModelTurn =
	{ tool: { name: string; args: Record<string, unknown> } } | { text: string };

/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are arbitrary JSON */

/** How one provider's requests read and its replies are written. */
export interface ModelWire {
	name: string;
	/** The JSON schema of each offered tool, by name. */
	tools(body: any): Map<string, unknown>;
	/** Whether a tool's result is in the conversation already. */
	hasToolResult(body: any): boolean;
	/** The text of the user turns. */
	userTexts(body: any): string[];
	reply(path: string, body: any, turn: ModelTurn): ModelReply;
}

const json = { 'content-type': 'application/json' };

function textOf(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
	return '';
}

function fromFake(reply: FakeReply): ModelReply {
	return { status: reply.status ?? 200, headers: reply.headers ?? json, body: reply.rawSse ?? '' };
}

const openAi: ModelWire = {
	name: 'openai',
	tools: (body) =>
		new Map(
			(body?.tools ?? []).map((tool: any) => [tool?.function?.name, tool?.function?.parameters]),
		),
	hasToolResult: (body) => (body?.messages ?? []).some((message: any) => message?.role === 'tool'),
	userTexts: (body) =>
		(body?.messages ?? [])
			.filter((message: any) => message?.role === 'user')
			.map((message: any) => textOf(message.content)),
	reply(_path, body, turn) {
		const message =
			'tool' in turn
				? {
						role: 'assistant',
						content: null,
						tool_calls: [
							{
								id: 'corpus001', // nine characters, as Mistral wants
								type: 'function',
								function: { name: turn.tool.name, arguments: JSON.stringify(turn.tool.args) },
							},
						],
					}
				: { role: 'assistant', content: turn.text };
		const finish = 'tool' in turn ? 'tool_calls' : 'stop';
		const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
		const base = { id: 'chatcmpl-corpus', created: 0, model: body?.model || 'fake' };
		if (body?.stream !== true)
			return {
				status: 200,
				headers: json,
				body: JSON.stringify({
					...base,
					object: 'chat.completion',
					choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
					usage,
				}),
			};
		const chunk = (choices: unknown[], extra: object = {}) =>
			`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
		const delta =
			'tool' in turn
				? { ...message, tool_calls: message.tool_calls?.map((call, index) => ({ index, ...call })) }
				: message;
		return {
			status: 200,
			headers: { 'content-type': 'text/event-stream' },
			body:
				chunk([{ index: 0, delta, finish_reason: null }]) +
				chunk([{ index: 0, delta: {}, finish_reason: finish }]) +
				chunk([], { usage }) +
				'data: [DONE]\n\n',
		};
	},
};

const anthropic: ModelWire = {
	name: 'anthropic',
	tools: (body) =>
		new Map([...anthropicToolsByName(body)].map(([name, tool]) => [name, tool.input_schema])),
	hasToolResult: (body) => anthropicToolResults(body).length > 0,
	userTexts: (body) =>
		(body?.messages ?? [])
			.filter((message: any) => message?.role === 'user')
			.map((message: any) => textOf(message.content)),
	reply: (_path, body, turn) =>
		fromFake(
			anthropicReply(
				{ body },
				'tool' in turn
					? [{ type: 'tool_use', id: 'toolu_corpus', name: turn.tool.name, input: turn.tool.args }]
					: [{ type: 'text', text: turn.text }],
			),
		),
};

const gemini: ModelWire = {
	name: 'gemini',
	tools: (body) =>
		new Map([...geminiFunctionDeclarations(body)].map(([name, tool]) => [name, tool.parameters])),
	hasToolResult: (body) => geminiFunctionResponses(body).length > 0,
	userTexts: (body) =>
		(body?.contents ?? [])
			.filter((content: any) => content?.role === 'user')
			.map((content: any) => textOf(content.parts)),
	reply: (path, _body, turn) =>
		fromFake(
			geminiReply(
				{ path },
				'tool' in turn
					? [{ functionCall: { name: turn.tool.name, args: turn.tool.args } }]
					: [{ text: turn.text }],
			),
		),
};

const ollama: ModelWire = {
	name: 'ollama',
	tools: openAi.tools,
	hasToolResult: openAi.hasToolResult,
	userTexts: openAi.userTexts,
	reply(_path, body, turn) {
		const message =
			'tool' in turn
				? {
						role: 'assistant',
						content: '',
						tool_calls: [{ function: { name: turn.tool.name, arguments: turn.tool.args } }],
					}
				: { role: 'assistant', content: turn.text };
		const head = { model: body?.model ?? 'fake', created_at: '2026-01-01T00:00:00Z' };
		const done = {
			...head,
			message: { role: 'assistant', content: '' },
			done: true,
			done_reason: 'stop',
			prompt_eval_count: 10,
			eval_count: 5,
		};
		if (body?.stream === false)
			return { status: 200, headers: json, body: JSON.stringify({ ...done, message }) };
		return {
			status: 200,
			headers: { 'content-type': 'application/x-ndjson' },
			body: `${JSON.stringify({ ...head, message, done: false })}\n${JSON.stringify(done)}\n`,
		};
	},
};

/** The wire of a request path, or undefined for a path no model answers on. */
export function wireOf(path: string): ModelWire | undefined {
	if (/\/chat\/completions(\?|$)/.test(path)) return openAi;
	if (/\/messages(\?|$)/.test(path)) return anthropic;
	if (/:(stream)?generateContent/i.test(path)) return gemini;
	if (/\/api\/chat(\?|$)/.test(path)) return ollama;
	return undefined;
}
