// @ts-check
/**
 * Chat models as sub-nodes (issue 18), run with `n8n import:workflow` + `n8n execute`
 * against scripted fake models (Chat Completions, or Anthropic's Messages API):
 *
 * - an agent (n8n's AI Agent v3.1 or our AgentOrchestrator) + a chat model sub-node (n8n's
 *   OpenAI or Anthropic Chat Model, or our Toolbridge Chat Model) + the Crypto tool via
 *   `$fromAI`: the model calls the tool, reads its result (same tool call id) and answers
 *   with the digest; every model call is a run of the model node in n8n's execution data
 *   (what the Logs view shows), with the token usage the fake reported;
 * - a PNG from a binary property reaches the model as an `image_url` part (data URL) when
 *   the orchestrator's `binaryInput` option is `images`, over the built-in client or a
 *   connected OpenAI Chat Model.
 *
 * The n8n AI Agent rows with n8n's own model nodes are baselines: they prove the model nodes,
 * credentials pointed at the fake and the fake's wire formats against n8n itself.
 */
import { createHash } from 'node:crypto';

import { checkRequest, loadFakeAnthropic, matchStreaming } from '../lib/fake-model.mjs';
import {
	EXPECTED,
	HASH_TOOL_DESCRIPTION,
	hashCallTurn,
	hashTextTool,
	TOOL_INPUT,
} from '../lib/tool-fixtures.mjs';
import {
	connections,
	FAKE_API_KEY,
	manualTrigger,
	node,
	nodeOutput,
	runDataOf,
	workflow,
} from '../lib/workflows.mjs';

const ORCHESTRATOR_TYPE = 'n8n-nodes-toolbridge.agentOrchestrator';
const TOOLBRIDGE_CHAT_MODEL_TYPE = 'n8n-nodes-toolbridge.toolbridgeChatModel';

/** The model id every Chat Completions request must name. */
const CHAT_MODEL_ID = 'fake/sub-node-model';
/** The model id every Anthropic request must name. */
const ANTHROPIC_MODEL_ID = 'claude-fake-e2e';
/** The token counts the fake reports for every call (its default usage). */
const FAKE_PROMPT_TOKENS = 12;

const HASH_PROMPT = 'Hash the text with the tool and tell me the digest.';
const HASH_CALL_ID = 'call_hash';
const HASH_TOOL_USE_ID = 'toolu_hash';

/**
 * A real 2×2 RGB PNG (red, blue / green, white): signature, IHDR, zlib IDAT and IEND with
 * correct CRCs, as any decoder accepts it.
 */
export const TINY_PNG_BASE64 =
	'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR42mP4zwAE/0Ho////AB/uBfuXrhxRAAAAAElFTkSuQmCC';

/**
 * A workflow or credential id that is unique per scenario (and suffix) and at most 21 characters.
 * @param {string} prefix
 * @param {string} key
 * @returns {string}
 */
function shortId(prefix, key) {
	return `${prefix}-${createHash('sha1').update(key).digest('hex').slice(0, 14)}`;
}

/**
 * @typedef {{ id: string, name: string, type: string, data: Record<string, unknown> }} Credential
 * @typedef {{ id: string, name: string }} CredentialRef
 * @typedef {object} ModelKind
 * @property {string} nodeName the model node's name in the workflow
 * @property {'chat' | 'anthropic'} wire what the fake must speak
 * @property {(id: string, baseUrl: string) => Credential} credential pointed at the fake
 * @property {(credential: CredentialRef) => import('../lib/workflows.mjs').WorkflowNode} node
 */

/** The chat model sub-nodes the scenarios connect. */
export const MODELS = /** @type {const} */ ({
	/** n8n's OpenAI Chat Model 1.3, Chat Completions (not the Responses API), `openAiApi` `url` → fake. */
	openai: /** @type {ModelKind} */ ({
		nodeName: 'OpenAI Chat Model',
		wire: 'chat',
		credential: (id, baseUrl) => ({
			id,
			name: `E2E OpenAI ${id}`,
			type: 'openAiApi',
			data: { apiKey: FAKE_API_KEY, url: baseUrl },
		}),
		node: (credential) =>
			node(
				'OpenAI Chat Model',
				'@n8n/n8n-nodes-langchain.lmChatOpenAi',
				1.3,
				{
					model: { __rl: true, mode: 'id', value: CHAT_MODEL_ID },
					responsesApiEnabled: false,
					options: {},
				},
				{ openAiApi: credential },
			),
	}),
	/**
	 * n8n's Anthropic Chat Model 1.6, non-streaming (`options.streaming` off, its default). The
	 * `anthropicApi` credential's `url` is the base the SDK appends `/v1/messages` to.
	 */
	anthropic: anthropicModel({}),
	/** The same with `options.streaming` on: the Messages API's SSE events. */
	anthropicStreaming: anthropicModel({ streaming: true }),
	/** Our Toolbridge Chat Model, `openAiCompatibleApi` → fake. */
	toolbridge: /** @type {ModelKind} */ ({
		nodeName: 'Toolbridge Chat Model',
		wire: 'chat',
		credential: (id, baseUrl) => ({
			id,
			name: `E2E OpenAI-compatible ${id}`,
			type: 'openAiCompatibleApi',
			data: { url: baseUrl, apiKey: FAKE_API_KEY, extraHeaders: '{}' },
		}),
		node: (credential) =>
			node(
				'Toolbridge Chat Model',
				TOOLBRIDGE_CHAT_MODEL_TYPE,
				1,
				{
					authentication: 'openAiCompatibleApi',
					model: { __rl: true, mode: 'id', value: CHAT_MODEL_ID },
					options: {},
				},
				{ openAiCompatibleApi: credential },
			),
	}),
});

/**
 * n8n's Anthropic Chat Model with these options.
 * @param {Record<string, unknown>} options
 * @returns {ModelKind}
 */
function anthropicModel(options) {
	return {
		nodeName: 'Anthropic Chat Model',
		wire: 'anthropic',
		// The SDK appends /v1/messages to the base URL: the fake's base without its /v1.
		credential: (id, baseUrl) => ({
			id,
			name: `E2E Anthropic ${id}`,
			type: 'anthropicApi',
			data: { apiKey: FAKE_API_KEY, url: baseUrl.replace(/\/v1$/, '') },
		}),
		node: (credential) =>
			node(
				'Anthropic Chat Model',
				'@n8n/n8n-nodes-langchain.lmChatAnthropic',
				1.6,
				{ model: { __rl: true, mode: 'id', value: ANTHROPIC_MODEL_ID }, options },
				{ anthropicApi: credential },
			),
	};
}

/**
 * @typedef {object} AgentKind
 * @property {string} nodeName
 * @property {(prompt: string, options?: Record<string, unknown>) => import('../lib/workflows.mjs').WorkflowNode} node
 * @property {(items: any[]) => unknown} answer the answer in the agent's output items
 * @property {(items: any[]) => any} [usage] the run's summed token usage, when the agent reports it
 */

/** The agents (root nodes) a model sub-node is connected to. */
export const AGENTS = /** @type {const} */ ({
	n8n: /** @type {AgentKind} */ ({
		nodeName: 'AI Agent',
		node: (prompt) =>
			node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, {
				promptType: 'define',
				text: prompt,
				options: {},
			}),
		answer: (items) => items[0]?.output,
	}),
	/** Our orchestrator without a credential of its own: the connected model answers. Output Format "full" reports usage. */
	orchestrator: /** @type {AgentKind} */ ({
		nodeName: 'Agent Orchestrator',
		node: (prompt, options = {}) =>
			node('Agent Orchestrator', ORCHESTRATOR_TYPE, 1, {
				mode: 'full',
				prompt,
				options: { outputFormat: 'full', ...options },
			}),
		answer: (items) => items[0]?.output ?? items[0],
		usage: (items) => items[0]?.usage,
	}),
});

// ---------------------------------------------------------------------------------------------
// scripted models

/**
 * Chat Completions: request 1 → assert the Hash_Text schema, call it; request 2 → assert the
 * assistant's tool call and its `tool` result share `call_hash`, answer with the digest read
 * from the result (so the answer is only right if Crypto really ran on the model's input).
 * @param {string} model the model id the request must name
 * @returns {(request: any, fake: any) => any}
 */
export function hashModelChat(model = CHAT_MODEL_ID) {
	return (request, fake) => {
		const { reply, results } = hashCallTurn(request, fake, { model, callId: HASH_CALL_ID });
		if (reply) return reply;
		const body = request.body;
		const calls = (body.messages ?? []).flatMap((/** @type {any} */ message) =>
			message.role === 'assistant' ? (message.tool_calls ?? []) : [],
		);
		const call = calls.find((/** @type {any} */ entry) => entry.id === HASH_CALL_ID);
		if (!call || call.function?.name !== 'Hash_Text')
			throw new Error(
				`second request lacks the assistant's tool call ${HASH_CALL_ID}: ${JSON.stringify(body.messages).slice(0, 800)}`,
			);
		if (JSON.parse(call.function.arguments || '{}').text !== TOOL_INPUT.text)
			throw new Error(`tool call arguments changed: ${call.function.arguments}`);
		if (results.length !== 1 || results[0].tool_call_id !== HASH_CALL_ID) {
			throw new Error(
				`expected one tool result for ${HASH_CALL_ID}: ${JSON.stringify(results).slice(0, 800)}`,
			);
		}
		const digest = /[0-9a-f]{64}/.exec(results[0].content)?.[0];
		if (!digest)
			throw new Error(`the tool result has no digest: ${results[0].content.slice(0, 500)}`);
		return matchStreaming(request, fake.textReply(`The SHA-256 digest is ${digest}.`));
	};
}

/**
 * The same script over Anthropic's Messages API (`tools[].input_schema`, `tool_use` /
 * `tool_result` blocks, `toolu_hash`); streamed or JSON as the request asks.
 * @param {any} anthropic the fake-anthropic module
 * @param {string} model
 * @returns {(request: any) => any}
 */
export function hashModelAnthropic(anthropic, model = ANTHROPIC_MODEL_ID) {
	return (request) => {
		if (request.method !== 'POST' || !String(request.path).endsWith('/v1/messages'))
			throw new Error(`unexpected path ${request.method} ${request.path}`);
		if (request.headers['x-api-key'] !== FAKE_API_KEY)
			throw new Error('the credential API key did not arrive as x-api-key');
		if (!request.headers['anthropic-version']) throw new Error('no anthropic-version header');
		const body = request.body;
		if (body?.model !== model)
			throw new Error(`model ${JSON.stringify(body?.model)}, expected ${model}`);
		if (!(body.max_tokens > 0))
			throw new Error(`max_tokens missing: ${JSON.stringify(body.max_tokens)}`);
		const tools = anthropic.anthropicToolsByName(body);
		const tool = tools.get('Hash_Text');
		if (!tool)
			throw new Error(
				`model request has no tool 'Hash_Text'; tools: ${JSON.stringify([...tools.keys()])}`,
			);
		const schema = tool.input_schema;
		if (
			schema?.type !== 'object' ||
			schema.properties?.text?.type !== 'string' ||
			!schema.required?.includes('text')
		) {
			throw new Error(
				`Hash_Text input_schema is not { text: string } (required): ${JSON.stringify(schema).slice(0, 800)}`,
			);
		}
		if (tool.description !== HASH_TOOL_DESCRIPTION)
			throw new Error(`Hash_Text description ${JSON.stringify(tool.description)}`);
		const results = anthropic.anthropicToolResults(body);
		if (results.length === 0) {
			return anthropic.anthropicToolUseReply(request, [
				{ id: HASH_TOOL_USE_ID, name: 'Hash_Text', input: { text: TOOL_INPUT.text } },
			]);
		}
		const use = anthropic
			.anthropicToolUses(body)
			.find((/** @type {any} */ entry) => entry.id === HASH_TOOL_USE_ID);
		if (!use || use.name !== 'Hash_Text' || use.input?.text !== TOOL_INPUT.text) {
			throw new Error(
				`second request lacks the assistant's tool_use ${HASH_TOOL_USE_ID}: ${JSON.stringify(body.messages).slice(0, 800)}`,
			);
		}
		if (results.length !== 1 || results[0].tool_use_id !== HASH_TOOL_USE_ID) {
			throw new Error(
				`expected one tool_result for ${HASH_TOOL_USE_ID}: ${JSON.stringify(results).slice(0, 800)}`,
			);
		}
		const digest = /[0-9a-f]{64}/.exec(results[0].content)?.[0];
		if (!digest)
			throw new Error(`the tool_result has no digest: ${results[0].content.slice(0, 500)}`);
		return anthropic.anthropicTextReply(request, `The SHA-256 digest is ${digest}.`);
	};
}

// ---------------------------------------------------------------------------------------------
// running and reading

/**
 * Assert that every model call is a run of the model node in n8n's execution data (what the
 * Logs view shows): `count` runs, each with the call's output under `ai_languageModel`, the
 * token usage and the agent as the node that used it.
 *
 * `usage`: `reported` (default) wants `tokenUsage` with the fake's counts; `estimate` accepts
 * n8n's `tokenUsageEstimate`. n8n's Anthropic Chat Model parses usage from LangChain's
 * `llmOutput.usage` (Anthropic's `input_tokens`/`output_tokens`), which only a non-streamed
 * call carries: for a streamed one @langchain/anthropic 1.5's `_generate` returns generations
 * only, and @langchain/core's `.stream()` ends with `llmOutput.tokenUsage` (camelCase), which
 * that parser does not read. So every streamed Anthropic call — n8n's AI Agent with the node's
 * streaming on, or the orchestrator, which always streams — shows n8n's estimate in the Logs
 * view whatever the server reports. (n8n's OpenAI node uses the default parser, which reads
 * `llmOutput.tokenUsage`: real counts either way.)
 * @param {any} result
 * @param {string} modelNode
 * @param {string} agentNode
 * @param {number} count
 * @param {'reported' | 'estimate'} [usage]
 * @returns {string} a summary for the report
 * @throws {Error} otherwise
 */
export function assertModelRuns(result, modelNode, agentNode, count, usage = 'reported') {
	const runData = runDataOf(result);
	const runs = runData[modelNode] ?? [];
	if (runs.length !== count) {
		throw new Error(
			`'${modelNode}' has ${runs.length} runs in the execution data, expected ${count} (one per model call); ran: ${Object.keys(runData).join(', ')}`,
		);
	}
	const usages = runs.map((/** @type {any} */ run, /** @type {number} */ index) => {
		if (run.error) throw new Error(`'${modelNode}' run ${index} failed: ${run.error.message}`);
		const json = run.data?.ai_languageModel?.[0]?.[0]?.json;
		if (!json)
			throw new Error(
				`'${modelNode}' run ${index} has no ai_languageModel output: ${JSON.stringify(run.data).slice(0, 500)}`,
			);
		/** @type {string} */
		let tokens;
		if (usage === 'estimate') {
			if (json.tokenUsage)
				throw new Error(
					`'${modelNode}' run ${index} has tokenUsage ${JSON.stringify(json.tokenUsage)}: n8n now reads the reported usage, make this row expect it`,
				);
			const estimate = json.tokenUsageEstimate;
			if (!(estimate?.totalTokens > 0))
				throw new Error(
					`'${modelNode}' run ${index} has neither tokenUsage nor tokenUsageEstimate: ${JSON.stringify(json).slice(0, 500)}`,
				);
			tokens = `~${estimate.promptTokens}+${estimate.completionTokens}`;
		} else {
			const reported = json.tokenUsage;
			if (!reported) {
				throw new Error(
					`'${modelNode}' run ${index} has no tokenUsage, only n8n's tokenUsageEstimate: the call's usage did not reach n8n's tracing ` +
						`(LangChain llmOutput; a .stream() call never carries it): ${JSON.stringify(json).slice(0, 500)}`,
				);
			}
			if (reported.promptTokens !== FAKE_PROMPT_TOKENS || !(reported.completionTokens > 0)) {
				throw new Error(
					`'${modelNode}' run ${index} tokenUsage ${JSON.stringify(reported)} is not what the fake reported (prompt ${FAKE_PROMPT_TOKENS})`,
				);
			}
			tokens = `${reported.promptTokens}+${reported.completionTokens}`;
		}
		if (!run.inputOverride?.ai_languageModel)
			throw new Error(`'${modelNode}' run ${index} has no input (the messages sent)`);
		const previous = run.source?.[0]?.previousNode;
		if (previous !== agentNode)
			throw new Error(
				`'${modelNode}' run ${index} is attributed to ${JSON.stringify(previous)}, expected '${agentNode}'`,
			);
		return tokens;
	});
	return `${modelNode}: ${runs.length} runs (tokens ${usages.join(', ')}${usage === 'estimate' ? '; ~ = n8n estimate' : ''})`;
}

/**
 * Assert that Crypto ran exactly once, as its own node, with the real digest.
 * @param {any} result
 * @returns {void}
 * @throws {Error} otherwise
 */
function assertHashRanOnce(result) {
	const runs = runDataOf(result)['Hash Text'] ?? [];
	if (runs.length !== 1) throw new Error(`'Hash Text' ran ${runs.length} times, expected 1`);
	const output = JSON.stringify(runs[0].data);
	if (!output.includes(EXPECTED.sha256))
		throw new Error(`'Hash Text' output lacks ${EXPECTED.sha256}: ${output.slice(0, 500)}`);
}

// ---------------------------------------------------------------------------------------------
// scenarios

/**
 * Agent + chat model sub-node + Crypto tool via `$fromAI`.
 * @param {{ agent: keyof typeof AGENTS, model: keyof typeof MODELS, usage?: 'reported' | 'estimate' }} spec
 *   `usage`: see {@link assertModelRuns}
 * @returns {(scope: import('../lib/context.mjs').ScenarioScope) => Promise<void>}
 */
export function modelSubNodeWithTool(spec) {
	return async (scope) => {
		const agent = AGENTS[spec.agent];
		const model = MODELS[spec.model];
		const respond =
			model.wire === 'anthropic' ? hashModelAnthropic(await loadFakeAnthropic()) : hashModelChat();
		const fake = await scope.startFake(respond);
		const credential = model.credential(shortId('cred', scope.id), fake.baseUrl);
		const started = Date.now();
		const result = await scope.importAndExecute({
			fake,
			credential,
			build: (ref) =>
				workflow({
					id: shortId('wf', scope.id),
					name: `E2E ${scope.id}`,
					nodes: [manualTrigger(), agent.node(HASH_PROMPT), model.node(ref), hashTextTool()],
					connections: connections([
						['Start', agent.nodeName],
						[model.nodeName, agent.nodeName, 'ai_languageModel'],
						['Hash Text', agent.nodeName, 'ai_tool'],
					]),
				}),
		});
		const took = Date.now() - started;
		fake.assertNoFailures();
		if (fake.requests.length !== 2)
			throw new Error(
				`the fake got ${fake.requests.length} requests, expected 2 (tool call, answer)`,
			);
		const items = nodeOutput(result, agent.nodeName);
		if (items.length !== 1)
			throw new Error(`'${agent.nodeName}' returned ${items.length} items, expected 1`);
		const answer = agent.answer(items);
		const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
		if (!text.includes(EXPECTED.sha256))
			throw new Error(`answer lacks the SHA-256 ${EXPECTED.sha256}: ${text.slice(0, 500)}`);
		assertHashRanOnce(result);
		const runs = assertModelRuns(result, model.nodeName, agent.nodeName, 2, spec.usage);
		let usageNote = '';
		if (agent.usage) {
			// The agent itself read the usage the fake reported (whatever n8n's Logs show).
			const usage = agent.usage(items);
			if (usage?.promptTokens !== 2 * FAKE_PROMPT_TOKENS || !(usage?.completionTokens > 0)) {
				throw new Error(
					`'${agent.nodeName}' usage ${JSON.stringify(usage)}, expected promptTokens ${2 * FAKE_PROMPT_TOKENS} (two calls as the fake reported them)`,
				);
			}
			usageNote = `; ${agent.nodeName} usage ${usage.promptTokens}+${usage.completionTokens}`;
		}
		const streamed = fake.requests.map((request) => Boolean(request.body?.stream)).join('/');
		scope.note(
			`answer has the real SHA-256 (${EXPECTED.sha256.slice(0, 12)}…); Hash Text ran once; ${runs}; stream: ${streamed}${usageNote}; import+execute ${(took / 1000).toFixed(1)} s`,
		);
	};
}

/**
 * A one-page PDF ("Toolbridge e2e") with a correct cross-reference table, built here so its
 * offsets are right by construction.
 * @returns {Buffer}
 */
export function tinyPdf() {
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 50] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
		'<< /Length 44 >>\nstream\nBT /F1 12 Tf 10 20 Td (Toolbridge e2e) Tj ET\nendstream',
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let body = '%PDF-1.4\n';
	/** @type {number[]} */
	const offsets = [];
	objects.forEach((object, index) => {
		offsets.push(body.length);
		body += `${index + 1} 0 obj\n${object}\nendobj\n`;
	});
	const xref = body.length;
	body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
	body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(body, 'latin1');
}

/**
 * The one part of `type` among a user message's content parts.
 * @param {any[]} parts
 * @param {string} type
 * @returns {any}
 * @throws {Error} when there is none or more than one
 */
function onlyPart(parts, type) {
	const found = parts.filter((part) => part?.type === type);
	if (found.length !== 1)
		throw new Error(
			`expected one ${type} part in the user message, got parts: ${JSON.stringify(parts).slice(0, 800)}`,
		);
	return found[0];
}

/**
 * The files the binary-input scenarios put in a binary property, and how each must reach the
 * model: an `image_url` part (`binaryInput: images`) or a `file` part (`imagesAndDocuments`),
 * both with a base64 data URL of the same bytes.
 */
const BINARY_FILES = /** @type {const} */ ({
	png: {
		bytes: () => Buffer.from(TINY_PNG_BASE64, 'base64'),
		mimeType: 'image/png',
		fileName: 'colours.png',
		binaryInput: 'images',
		prompt: 'Name the colours in the image.',
		answer: 'Red, blue, green and white.',
		/** @param {any[]} parts @returns {string} the data URL */
		find(parts) {
			const image = onlyPart(parts, 'image_url');
			return typeof image.image_url === 'string' ? image.image_url : image.image_url?.url;
		},
	},
	pdf: {
		bytes: tinyPdf,
		mimeType: 'application/pdf',
		fileName: 'report.pdf',
		binaryInput: 'imagesAndDocuments',
		prompt: 'What does the document say?',
		answer: 'It says Toolbridge e2e.',
		/** @param {any[]} parts @returns {string} the data URL */
		find(parts) {
			const file = onlyPart(parts, 'file');
			if (file.file?.filename !== 'report.pdf')
				throw new Error(
					`file part filename ${JSON.stringify(file.file?.filename)}, expected report.pdf`,
				);
			return file.file?.file_data;
		},
	},
});

/**
 * A file from a binary property (Set → Convert to File) → orchestrator with
 * `options.binaryInput` → the model receives it as a content part (PNG: `image_url`; PDF with
 * `imagesAndDocuments`: `file` with `filename` and `file_data`) whose data URL decodes to the
 * same bytes, beside the prompt text.
 * @param {{ via: 'builtin' | 'openai', file?: keyof typeof BINARY_FILES }} spec `builtin`: the
 *   orchestrator's own client (`openAiCompatibleApi` → fake); `openai`: a connected OpenAI Chat
 *   Model; `file`: `png` (default) or `pdf`
 * @returns {(scope: import('../lib/context.mjs').ScenarioScope) => Promise<void>}
 */
export function binaryInputScenario(spec) {
	return async (scope) => {
		const file = BINARY_FILES[spec.file ?? 'png'];
		const bytes = file.bytes();
		/** @type {string[]} */
		const seen = [];
		const fake = await scope.startFake((request, fakeModule) => {
			checkRequest(request, CHAT_MODEL_ID);
			const users = (request.body.messages ?? []).filter(
				(/** @type {any} */ message) => message.role === 'user',
			);
			const parts = users.flatMap((/** @type {any} */ message) =>
				Array.isArray(message.content)
					? message.content
					: [{ type: 'text', text: message.content }],
			);
			seen.push(...parts.map((/** @type {any} */ part) => String(part?.type)));
			const url = file.find(parts);
			const match = /^data:([^;,]+);base64,(.*)$/s.exec(String(url));
			if (!match)
				throw new Error(
					`the ${file.mimeType} part is not a base64 data URL: ${String(url).slice(0, 120)}`,
				);
			if (match[1] !== file.mimeType)
				throw new Error(`the data URL has MIME type ${match[1]}, expected ${file.mimeType}`);
			if (!Buffer.from(match[2], 'base64').equals(bytes))
				throw new Error(
					`the data URL's bytes differ from the file in the binary property: ${match[2].slice(0, 80)}…`,
				);
			const text = parts
				.filter((/** @type {any} */ part) => part?.type === 'text')
				.map((/** @type {any} */ part) => part.text)
				.join(' ');
			if (!text.includes(file.prompt))
				throw new Error(
					`the prompt text is not in the user message: ${JSON.stringify(parts).slice(0, 800)}`,
				);
			return matchStreaming(request, fakeModule.textReply(file.answer));
		});
		const model = MODELS.openai;
		const credential =
			spec.via === 'openai'
				? model.credential(shortId('cred', scope.id), fake.baseUrl)
				: MODELS.toolbridge.credential(shortId('cred', scope.id), fake.baseUrl);
		const ref = { id: credential.id, name: credential.name };
		const options = { binaryInput: file.binaryInput };
		const orchestrator =
			spec.via === 'openai'
				? AGENTS.orchestrator.node(file.prompt, options)
				: node(
						'Agent Orchestrator',
						ORCHESTRATOR_TYPE,
						1,
						{
							authentication: 'openAiCompatibleApi',
							mode: 'full',
							model: CHAT_MODEL_ID,
							prompt: file.prompt,
							options,
						},
						{ openAiCompatibleApi: ref },
					);
		const nodes = [
			manualTrigger(),
			node('Make File', 'n8n-nodes-base.set', 3.4, {
				mode: 'manual',
				assignments: {
					assignments: [
						{
							id: 'a0000000-0000-4000-8000-000000000001',
							name: 'content',
							value: bytes.toString('base64'),
							type: 'string',
						},
					],
				},
				options: {},
			}),
			node('To File', 'n8n-nodes-base.convertToFile', 1.1, {
				operation: 'toBinary',
				sourceProperty: 'content',
				binaryPropertyName: 'attachment',
				options: { fileName: file.fileName, mimeType: file.mimeType },
			}),
			orchestrator,
		];
		/** @type {Array<[string, string, string?]>} */
		const edges = [
			['Start', 'Make File'],
			['Make File', 'To File'],
			['To File', 'Agent Orchestrator'],
		];
		if (spec.via === 'openai') {
			nodes.push(model.node(ref));
			edges.push([model.nodeName, 'Agent Orchestrator', 'ai_languageModel']);
		}
		const result = await scope.importAndExecute({
			fake,
			credential,
			build: () =>
				workflow({
					id: shortId('wf', scope.id),
					name: `E2E ${scope.id}`,
					nodes,
					connections: connections(edges),
				}),
		});
		// The binary really was there (the fake's check above would fail on its absence, but say where).
		const binary = runDataOf(result)['To File']?.[0]?.data?.main?.[0]?.[0]?.binary?.attachment;
		if (binary?.mimeType !== file.mimeType)
			throw new Error(
				`'To File' produced no ${file.mimeType} binary: ${JSON.stringify(binary).slice(0, 300)}`,
			);
		fake.assertNoFailures();
		if (fake.requests.length !== 1)
			throw new Error(`the fake got ${fake.requests.length} requests, expected 1`);
		const items = nodeOutput(result, 'Agent Orchestrator');
		const answer = JSON.stringify(AGENTS.orchestrator.answer(items));
		if (!answer.includes(file.answer))
			throw new Error(`unexpected answer: ${answer.slice(0, 300)}`);
		const runs =
			spec.via === 'openai'
				? `; ${assertModelRuns(result, model.nodeName, 'Agent Orchestrator', 1)}`
				: '';
		scope.note(
			`user message parts: ${seen.join(', ')}; the data URL decodes to the ${bytes.length}-byte ${file.mimeType} file${runs}`,
		);
	};
}
