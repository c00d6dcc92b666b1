// @ts-check
/**
 * Glue between the e2e scenarios and `test/support/fake-chat-server.ts`:
 * loading it (TypeScript, through tsx), answering non-streaming clients (LangChain's
 * ChatOpenAI in n8n's AI Agent asks with `stream: false`) with a JSON completion built
 * from the same scripted chunks, and asserting the tool schemas a model received.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { FAKE_API_KEY } from './workflows.mjs';

const FAKE_SERVER_URL = new URL('../../support/fake-chat-server.ts', import.meta.url);
const FAKE_ANTHROPIC_URL = new URL('../../support/fake-anthropic.ts', import.meta.url);

/** Whether the shared fake chat server exists in this tree. */
export function fakeServerAvailable() {
	return existsSync(fileURLToPath(FAKE_SERVER_URL));
}

/**
 * Import `test/support/fake-chat-server.ts` (via tsx, so this works on Node 20 and 24).
 * @returns {Promise<any>} the module: startFakeChatServer, textReply, toolCallReply, …
 * @throws {Error} when the file is missing or does not load
 */
export async function loadFakeChatServer() {
	const { tsImport } = await import('tsx/esm/api');
	return tsImport(FAKE_SERVER_URL.href, import.meta.url);
}

/** @type {Promise<any> | undefined} */
let fakeAnthropic;

/**
 * Import `test/support/fake-anthropic.ts` (Anthropic Messages API replies for the same fake
 * server; via tsx), once.
 * @returns {Promise<any>} the module: anthropicTextReply, anthropicToolUseReply, anthropicToolResults, …
 * @throws {Error} when the file is missing or does not load
 */
export function loadFakeAnthropic() {
	fakeAnthropic ??= import('tsx/esm/api').then(({ tsImport }) =>
		tsImport(FAKE_ANTHROPIC_URL.href, import.meta.url),
	);
	return fakeAnthropic;
}

/**
 * Fold a streamed reply's chunks into one non-streaming `chat.completion` JSON reply.
 * Streaming requests get the SSE reply unchanged.
 * @param {{ body: any }} request the recorded request
 * @param {any} reply a FakeReply (from textReply / toolCallReply)
 * @returns {any} a FakeReply
 */
export function matchStreaming(request, reply) {
	if (request.body?.stream === true || !reply.chunks) return reply;
	let content = '';
	let finishReason = 'stop';
	let usage;
	let model = 'fake/model';
	let id = 'gen-fake-1';
	/** @type {Array<{ id: string, type: 'function', function: { name: string, arguments: string } }>} */
	const toolCalls = [];
	for (const chunk of reply.chunks) {
		model = chunk.model ?? model;
		id = chunk.id ?? id;
		if (chunk.usage) usage = chunk.usage;
		for (const choice of chunk.choices ?? []) {
			if (choice.finish_reason) finishReason = choice.finish_reason;
			const delta = choice.delta ?? {};
			if (typeof delta.content === 'string') content += delta.content;
			for (const call of delta.tool_calls ?? []) {
				const slot = (toolCalls[call.index] ??= {
					id: '',
					type: 'function',
					function: { name: '', arguments: '' },
				});
				if (call.id) slot.id = call.id;
				if (call.function?.name) slot.function.name = call.function.name;
				if (call.function?.arguments) slot.function.arguments += call.function.arguments;
			}
		}
	}
	const completion = {
		id,
		object: 'chat.completion',
		created: 1_750_000_000,
		model,
		choices: [
			{
				index: 0,
				finish_reason: finishReason,
				message: {
					role: 'assistant',
					content: toolCalls.length > 0 && content === '' ? null : content,
					...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
				},
			},
		],
		...(usage ? { usage } : {}),
	};
	const { chunks: _chunks, ...rest } = reply;
	return {
		...rest,
		headers: { ...reply.headers, 'Content-Type': 'application/json' },
		rawSse: JSON.stringify(completion),
	};
}

/**
 * The `tools` of a chat request, by function name.
 * @param {any} body request body
 * @returns {Map<string, { description: string, parameters: any }>}
 */
export function toolsByName(body) {
	const tools = new Map();
	for (const tool of body?.tools ?? []) {
		if (tool?.type === 'function' && tool.function?.name) {
			tools.set(tool.function.name, {
				description: tool.function.description ?? '',
				parameters: tool.function.parameters,
			});
		}
	}
	return tools;
}

/**
 * Assert that a request offered the tool `name` with an object schema whose properties
 * have the given JSON Schema types, and (optionally) exactly this description.
 * A fake model that skipped this check would prove nothing about schemas.
 * @param {any} body request body
 * @param {string} name tool (function) name
 * @param {{ properties: Record<string, string>, required?: string[], description?: string }} expected
 *   `properties`: name → JSON Schema type
 * @returns {void}
 * @throws {Error} naming what differs, with the tool list received
 */
export function assertToolSchema(body, name, expected) {
	const tools = toolsByName(body);
	const tool = tools.get(name);
	const received = JSON.stringify(
		[...tools.entries()].map(([toolName, value]) => ({ name: toolName, ...value })),
	);
	if (!tool)
		throw new Error(
			`model request has no tool '${name}'; tools received: ${received.slice(0, 1500)}`,
		);
	const schema = tool.parameters;
	if (schema?.type !== 'object' || typeof schema.properties !== 'object') {
		throw new Error(
			`tool '${name}' schema is not an object schema with properties: ${JSON.stringify(schema).slice(0, 800)}`,
		);
	}
	for (const [property, type] of Object.entries(expected.properties)) {
		const actual = schema.properties[property];
		if (!actual)
			throw new Error(
				`tool '${name}' schema lacks property '${property}': ${JSON.stringify(schema)}`,
			);
		if (actual.type !== type) {
			throw new Error(
				`tool '${name}' property '${property}' has type ${JSON.stringify(actual.type)}, expected '${type}'`,
			);
		}
	}
	for (const property of expected.required ?? []) {
		if (!schema.required?.includes(property)) {
			throw new Error(
				`tool '${name}' schema does not require '${property}': ${JSON.stringify(schema.required)}`,
			);
		}
	}
	if (expected.description !== undefined && tool.description !== expected.description) {
		throw new Error(
			`tool '${name}' description is ${JSON.stringify(tool.description)}, expected ${JSON.stringify(expected.description)}`,
		);
	}
}

/**
 * The `tool` role messages of a chat request (content as text).
 * @param {any} body
 * @returns {Array<{ tool_call_id: string, content: string }>}
 */
export function toolMessages(body) {
	return (body?.messages ?? [])
		.filter((/** @type {any} */ message) => message.role === 'tool')
		.map((/** @type {any} */ message) => ({
			tool_call_id: message.tool_call_id,
			content:
				typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
		}));
}

/**
 * Common checks of every request a fake model gets: the chat completions path, the fake
 * credential's key as a Bearer token, and (when given) the model id.
 * @param {any} request
 * @param {string} [model] the model id the request must name
 * @returns {void}
 * @throws {Error} on a wrong path, key or model
 */
export function checkRequest(request, model) {
	if (!String(request.path).endsWith('/chat/completions'))
		throw new Error(`unexpected path ${request.method} ${request.path}`);
	if (request.headers.authorization !== `Bearer ${FAKE_API_KEY}`)
		throw new Error('the credential API key did not arrive as a Bearer token');
	if (model !== undefined && request.body?.model !== model)
		throw new Error(`model ${JSON.stringify(request.body?.model)}, expected ${model}`);
}
