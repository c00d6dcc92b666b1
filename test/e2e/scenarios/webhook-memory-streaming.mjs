// @ts-check
/**
 * `n8n start` with published Webhook workflows → our AgentOrchestrator (engine driver) with a
 * real tool (Crypto SHA-256 via `$fromAI`):
 *
 * - memory: n8n's Simple Memory (`memoryBufferWindow`), two turns in one session over HTTP;
 *   the second turn's request to the fake must carry the first turn as real messages —
 *   the assistant `tool_calls`, the `tool` result, the answer — and never a
 *   `[Used tools …]` text (n8n's own agent saves that summary instead, #14361 / #23819).
 * - streaming: a Webhook with `responseMode: streaming`; the first text chunk must reach the
 *   HTTP client while the fake still holds the model's last answer back (it waits for the
 *   client to report that chunk), so text really flows before the end, across the engine
 *   re-entry that runs the tool.
 */
import { randomUUID } from 'node:crypto';

import { matchStreaming, toolMessages } from '../lib/fake-model.mjs';
import { postStreaming } from '../lib/ndjson.mjs';
import { assertHashToolSchema, EXPECTED, hashTextTool, TOOL_INPUT } from '../lib/tool-fixtures.mjs';
import { connections, node, openRouterCredential, workflow } from '../lib/workflows.mjs';

const FIRST_TURN = `Please hash this exact text: ${TOOL_INPUT.text}`;
const SECOND_TURN = 'Which tool did you use, and on which text?';
const SESSION = 'session-e2e-1';
const STREAM_PREAMBLE = 'Hashing the text now. ';
/** How long the fake holds the last answer back waiting for the client's first chunk. */
const GATE_TIMEOUT_MS = 60_000;

/**
 * A Webhook node (v2.1) with a fixed id for its production URL.
 * @param {string} path
 * @param {'lastNode' | 'streaming'} responseMode
 * @returns {import('../lib/workflows.mjs').WorkflowNode & { webhookId: string }}
 */
function webhookNode(path, responseMode) {
	const parameters = { httpMethod: 'POST', path, responseMode, options: {} };
	if (responseMode === 'lastNode') Object.assign(parameters, { responseData: 'firstEntryJson' });
	return { ...node('Webhook', 'n8n-nodes-base.webhook', 2.1, parameters), webhookId: randomUUID() };
}

/**
 * The orchestrator node, prompt from the request body.
 * @param {{ id: string, name: string }} credential
 * @returns {import('../lib/workflows.mjs').WorkflowNode}
 */
function orchestratorNode(credential) {
	return node(
		'Agent Orchestrator',
		'n8n-nodes-toolbridge.agentOrchestrator',
		1,
		{
			authentication: 'openRouterApi',
			mode: 'full',
			model: 'fake/e2e-model',
			prompt: '={{ $json.body.message }}',
			options: {},
		},
		{ openRouterApi: credential },
	);
}

/**
 * The messages of a chat request as plain objects.
 * @param {any} body
 * @returns {any[]}
 */
function messagesOf(body) {
	return Array.isArray(body?.messages) ? body.messages : [];
}

/**
 * Text of a message's content (string or parts).
 * @param {any} message
 * @returns {string}
 */
function textOf(message) {
	if (typeof message?.content === 'string') return message.content;
	if (Array.isArray(message?.content))
		return message.content.map((/** @type {any} */ part) => part?.text ?? '').join('');
	return '';
}

/**
 * The digest in the Hash_Text tool result of a request.
 * @param {any} body
 * @returns {string}
 * @throws {Error} when there is none
 */
function digestFromToolResult(body) {
	const result = toolMessages(body).find((message) => message.tool_call_id === 'call_hash');
	const digest = /[0-9a-f]{64}/.exec(result?.content ?? '')?.[0];
	if (!digest)
		throw new Error(
			`no Hash_Text result with a digest: ${JSON.stringify(messagesOf(body)).slice(0, 800)}`,
		);
	return digest;
}

/**
 * Check the second turn's request: the first turn as real messages, in order, then the new question.
 * @param {any} body
 * @returns {void}
 * @throws {Error} naming what is missing
 */
function assertFirstTurnReplayed(body) {
	const messages = messagesOf(body).filter(
		(/** @type {any} */ message) => message.role !== 'system',
	);
	const summary = JSON.stringify(
		messages.map((/** @type {any} */ message) => ({
			role: message.role,
			content: textOf(message).slice(0, 60),
			tool_calls: message.tool_calls?.length,
		})),
	);
	if (messages.some((/** @type {any} */ message) => /\[Used tools/i.test(textOf(message)))) {
		throw new Error(
			`the history holds a '[Used tools' summary instead of real tool messages: ${summary}`,
		);
	}
	const roles = messages.map((/** @type {any} */ message) => message.role).join(',');
	if (roles !== 'user,assistant,tool,assistant,user')
		throw new Error(
			`second turn messages are ${roles}, expected user,assistant,tool,assistant,user: ${summary}`,
		);
	const [firstUser, toolCallMessage, toolResult, firstAnswer, secondUser] = messages;
	if (textOf(firstUser) !== FIRST_TURN)
		throw new Error(`first user message changed: ${textOf(firstUser)}`);
	const [call, ...otherCalls] = toolCallMessage.tool_calls ?? [];
	if (
		!call ||
		otherCalls.length > 0 ||
		call.id !== 'call_hash' ||
		call.function?.name !== 'Hash_Text'
	) {
		throw new Error(
			`the assistant tool call of turn 1 is not replayed as one Hash_Text call: ${JSON.stringify(toolCallMessage)}`,
		);
	}
	if (JSON.parse(call.function.arguments).text !== TOOL_INPUT.text)
		throw new Error(`replayed call arguments changed: ${call.function.arguments}`);
	if (toolResult.tool_call_id !== 'call_hash' || !textOf(toolResult).includes(EXPECTED.sha256)) {
		throw new Error(
			`the tool result of turn 1 is not replayed with the real digest: ${JSON.stringify(toolResult).slice(0, 500)}`,
		);
	}
	if (!textOf(firstAnswer).includes(EXPECTED.sha256))
		throw new Error(`turn 1's answer is not replayed: ${textOf(firstAnswer)}`);
	if (textOf(secondUser) !== SECOND_TURN)
		throw new Error(`second user message changed: ${textOf(secondUser)}`);
}

/**
 * The scripted model for the memory workflow.
 * @returns {(request: any, fake: any) => any}
 */
function memoryModel() {
	return (request, fake) => {
		const body = request.body;
		assertHashToolSchema(body);
		const messages = messagesOf(body);
		const last = messages.at(-1);
		if (last?.role === 'tool')
			return matchStreaming(request, fake.textReply(`Digest: ${digestFromToolResult(body)}.`));
		if (last?.role === 'user' && textOf(last) === FIRST_TURN) {
			if (messages.some((/** @type {any} */ message) => message.role === 'assistant'))
				throw new Error('turn 1 started with history: the session was not fresh');
			return matchStreaming(
				request,
				fake.toolCallReply([
					{ id: 'call_hash', name: 'Hash_Text', arguments: { text: TOOL_INPUT.text } },
				]),
			);
		}
		if (last?.role === 'user' && textOf(last) === SECOND_TURN) {
			assertFirstTurnReplayed(body);
			return matchStreaming(request, fake.textReply(`I used Hash_Text on "${TOOL_INPUT.text}".`));
		}
		throw new Error(`unexpected request: ${JSON.stringify(messages).slice(0, 600)}`);
	};
}

/**
 * The scenario: one `n8n start` instance, two published webhook workflows.
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @returns {Promise<void>}
 */
export async function webhookMemoryStreaming(scope) {
	const memoryFake = await scope.startFake(memoryModel());

	// Streaming fake: the last answer waits until the HTTP client has seen the first text chunk.
	/** @type {() => void} */
	let openGate = () => {};
	const gate = new Promise((resolve) => {
		openGate = () => resolve(true);
	});
	let lastAnswerSent = false;
	const streamFake = await scope.startFake(async (request, fake) => {
		const body = request.body;
		if (body?.stream !== true)
			throw new Error('the orchestrator did not ask the model for a stream');
		assertHashToolSchema(body);
		if (messagesOf(body).at(-1)?.role !== 'tool') {
			return fake.toolCallReply(
				[{ id: 'call_hash', name: 'Hash_Text', arguments: { text: TOOL_INPUT.text } }],
				{ text: STREAM_PREAMBLE },
			);
		}
		const opened = await Promise.race([
			gate,
			new Promise((resolve) => setTimeout(() => resolve(false), GATE_TIMEOUT_MS)),
		]);
		if (!opened)
			throw new Error(
				`the client saw no text chunk within ${GATE_TIMEOUT_MS / 1000} s while the final answer was held back`,
			);
		lastAnswerSent = true;
		return fake.textReply(`Digest: ${digestFromToolResult(body)}.`);
	});

	const { n8n } = await scope.newN8n();
	const memoryCredential = openRouterCredential('cred-wh-memory', memoryFake.baseUrl);
	const streamCredential = openRouterCredential('cred-wh-stream', streamFake.baseUrl);
	await n8n.importCredentials([memoryCredential, streamCredential]);
	const memoryWorkflow = workflow({
		id: 'wf-wh-memory',
		name: 'E2E webhook memory',
		nodes: [
			webhookNode('tb-memory', 'lastNode'),
			orchestratorNode(memoryCredential),
			node('Simple Memory', '@n8n/n8n-nodes-langchain.memoryBufferWindow', 1.3, {
				sessionIdType: 'customKey',
				sessionKey: '={{ $json.body.sessionId }}',
				contextWindowLength: 10,
			}),
			hashTextTool(),
		],
		connections: connections([
			['Webhook', 'Agent Orchestrator'],
			['Simple Memory', 'Agent Orchestrator', 'ai_memory'],
			['Hash Text', 'Agent Orchestrator', 'ai_tool'],
		]),
	});
	const streamWorkflow = workflow({
		id: 'wf-wh-stream',
		name: 'E2E webhook streaming',
		nodes: [
			webhookNode('tb-stream', 'streaming'),
			orchestratorNode(streamCredential),
			hashTextTool(),
		],
		connections: connections([
			['Webhook', 'Agent Orchestrator'],
			['Hash Text', 'Agent Orchestrator', 'ai_tool'],
		]),
	});
	for (const definition of [memoryWorkflow, streamWorkflow]) {
		const id = await n8n.importWorkflow(definition);
		await n8n.cli(['publish:workflow', `--id=${id}`]);
	}
	await n8n.start();
	// n8n 2.41 registers published webhooks asynchronously after readiness (publication service).
	const registering = Date.now();
	await n8n.waitForWebhook('tb-memory');
	await n8n.waitForWebhook('tb-stream');
	scope.note(
		`webhooks registered ${((Date.now() - registering) / 1000).toFixed(1)} s after readiness + owner setup`,
	);

	// Two turns in one session.
	const first = await n8n.postJson('tb-memory', { sessionId: SESSION, message: FIRST_TURN });
	memoryFake.assertNoFailures();
	if (!JSON.stringify(first).includes(EXPECTED.sha256))
		throw new Error(`turn 1 answer lacks the SHA-256: ${JSON.stringify(first).slice(0, 500)}`);
	const second = await n8n.postJson('tb-memory', { sessionId: SESSION, message: SECOND_TURN });
	memoryFake.assertNoFailures();
	if (!JSON.stringify(second).includes('Hash_Text'))
		throw new Error(
			`turn 2 answer is not the scripted one: ${JSON.stringify(second).slice(0, 500)}`,
		);
	if (memoryFake.requests.length !== 3)
		throw new Error(`the memory fake got ${memoryFake.requests.length} requests, expected 3`);

	// Streaming.
	/** @type {boolean | undefined} */
	let firstTextBeforeLastAnswer;
	const { chunks, ended, error } = await postStreaming(
		n8n,
		'tb-stream',
		{ message: FIRST_TURN },
		() => {
			firstTextBeforeLastAnswer = !lastAnswerSent;
			openGate();
		},
	);
	if (ended === 'error') throw new Error(error);
	streamFake.assertNoFailures();
	const items = chunks.filter((chunk) => chunk.type === 'item');
	const streamedText = items.map((chunk) => chunk.content ?? '').join('');
	const types = [...new Set(chunks.map((chunk) => chunk.type))].join(',');
	if (firstTextBeforeLastAnswer !== true)
		throw new Error(
			`no text chunk arrived before the final answer was sent (chunk types: ${types})`,
		);
	if (!streamedText.startsWith(STREAM_PREAMBLE))
		throw new Error(
			`the stream does not start with the first turn's text: ${streamedText.slice(0, 200)}`,
		);
	if (!streamedText.includes(EXPECTED.sha256))
		throw new Error(`the streamed text lacks the SHA-256: ${streamedText.slice(0, 400)}`);
	if (chunks[0]?.type !== 'begin' || chunks.at(-1)?.type !== 'end')
		throw new Error(`the stream is not begin … end: ${types}`);
	if (chunks.some((chunk) => chunk.type === 'error'))
		throw new Error(
			`the stream carries an error chunk: ${JSON.stringify(chunks.find((chunk) => chunk.type === 'error'))}`,
		);
	if (streamFake.requests.length !== 2)
		throw new Error(`the streaming fake got ${streamFake.requests.length} requests, expected 2`);

	scope.note(
		`memory: turn 2 request replayed user/assistant(tool_calls)/tool/assistant of turn 1, no '[Used tools'; ` +
			`streaming: ${items.length} text chunks (${types}), the first before the final answer left the fake`,
	);
}
