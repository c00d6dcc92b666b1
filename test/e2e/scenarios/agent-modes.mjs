// @ts-check
/**
 * The AgentOrchestrator's validator and nested modes in a real n8n (issues 5, 6 scenario 3, 8),
 * run with `n8n import:workflow` + `n8n execute` against scripted fake models that assert
 * the tool schemas they are offered:
 *
 * - validator: the model first sends arguments that fail the schema, then good ones; the
 *   tool (real Crypto) runs once;
 * - nested under our orchestrator: Parent (full) ← Researcher (nested) ← Crypto, with the
 *   parent's tool calls run in-process or by n8n's engine;
 * - nested under n8n's own AI Agent v3.1 (OpenRouter model node → fake).
 */
import { assertToolSchema, matchStreaming, toolMessages } from '../lib/fake-model.mjs';
import {
	FAKE_API_KEY,
	connections,
	node,
	nodeOutput,
	openRouterCredential,
	runDataOf,
	runError,
	workflow,
} from '../lib/workflows.mjs';
import { EXPECTED, HASH_TOOL_DESCRIPTION, TOOL_INPUT, hashTextTool } from './tool-fixtures.mjs';

/** The description the parent's model must see for the nested agent. */
export const RESEARCHER_DESCRIPTION =
	'Researches a question with its own tools and answers in one short sentence.';

/** The task the parent's model gives the nested agent. */
export const RESEARCHER_TASK = `Compute the SHA-256 hex digest of this exact text: ${TOOL_INPUT.text}`;

/**
 * Import a credential for the fake and the workflow, execute it, and return the result.
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @param {string} baseUrl fake base URL
 * @param {(credential: { id: string, name: string }) => Record<string, unknown>} buildWorkflow
 * @param {string} [suffix] distinguishes several workflows of one scenario
 * @returns {Promise<any>} parsed run result
 * @throws {Error} when n8n reports the execution as failed
 */
async function importAndExecute(scope, baseUrl, buildWorkflow, suffix = '') {
	const n8n = await scope.run.cliN8n();
	const credential = openRouterCredential(`cred-${scope.id}${suffix}`.slice(0, 21), baseUrl);
	await n8n.importCredentials([credential]);
	const id = await n8n.importWorkflow(buildWorkflow({ id: credential.id, name: credential.name }));
	const run = await n8n.execute(id);
	if (!run.ok) {
		const message = run.result ? runError(run.result) : undefined;
		throw new Error(
			`n8n execute failed: ${message ?? '(no error in output)'} (log ${run.logPath})\n${run.stdout.slice(-1500)}`,
		);
	}
	return run.result;
}

/**
 * Common checks of every request a fake model gets.
 * @param {any} request
 * @param {string} [model] the model id the request must name
 * @returns {void}
 * @throws {Error} on a wrong path, key or model
 */
function checkRequest(request, model) {
	if (!String(request.path).endsWith('/chat/completions'))
		throw new Error(`unexpected path ${request.method} ${request.path}`);
	if (request.headers.authorization !== `Bearer ${FAKE_API_KEY}`)
		throw new Error('the credential API key did not arrive as a Bearer token');
	if (model !== undefined && request.body?.model !== model)
		throw new Error(`model ${JSON.stringify(request.body?.model)}, expected ${model}`);
}

/** The Hash Text tool's schema as every model must receive it. */
function assertHashSchema(body) {
	assertToolSchema(body, 'Hash_Text', {
		properties: { text: 'string' },
		required: ['text'],
		description: HASH_TOOL_DESCRIPTION,
	});
}

/** Text of the first `user` message of a request. */
function userText(body) {
	const message = (body?.messages ?? []).find((/** @type {any} */ entry) => entry.role === 'user');
	if (!message) return undefined;
	return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
}

/** Sum of the `usage` each scripted reply reported (the fake's usage chunk). */
function replyUsage(reply) {
	const chunk = (reply.chunks ?? []).find((/** @type {any} */ entry) => entry.usage);
	return chunk?.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cost: 0 };
}

// ---------------------------------------------------------------------------------------------
// validator

/**
 * Validator mode: Manual → Orchestrator (validator, tool "Hash Text") + Crypto tool.
 * Attempt 1 sends `text` as a number and an extra field; attempt 2 is right.
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @returns {Promise<void>}
 */
export async function validatorMode(scope) {
	const model = 'fake/validator-model';
	const fake = await scope.startFake((request, fake) => {
		checkRequest(request, model);
		const body = request.body;
		assertHashSchema(body);
		const choice = body.tool_choice;
		if (choice?.type !== 'function' || choice.function?.name !== 'Hash_Text') {
			throw new Error(`tool_choice does not force Hash_Text: ${JSON.stringify(choice)}`);
		}
		if (request.index === 0)
			return matchStreaming(
				request,
				fake.toolCallReply([{ id: 'call_bad', name: 'Hash_Text', arguments: { text: 42 } }], {
					model,
				}),
			);
		if (request.index === 1)
			return matchStreaming(
				request,
				fake.toolCallReply(
					[{ id: 'call_good', name: 'Hash_Text', arguments: { text: TOOL_INPUT.text } }],
					{ model },
				),
			);
		throw new Error(`unexpected request ${request.index}`);
	});
	const result = await importAndExecute(scope, fake.baseUrl, (credential) =>
		workflow({
			id: `wf-${scope.id}`.slice(0, 21),
			name: `E2E ${scope.id}`,
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
				node(
					'Validator',
					'n8n-nodes-toolbridge.agentOrchestrator',
					1,
					{
						authentication: 'openRouterApi',
						mode: 'validator',
						validatorTool: 'Hash Text',
						maxAttempts: 3,
						model,
						prompt: 'Hash the text I will give you.',
						options: {},
					},
					{ openRouterApi: credential },
				),
				hashTextTool(),
			],
			connections: connections([
				['Start', 'Validator'],
				['Hash Text', 'Validator', 'ai_tool'],
			]),
		}),
	);
	fake.assertNoFailures();
	if (fake.requests.length !== 2)
		throw new Error(`the fake got ${fake.requests.length} requests, expected 2`);
	// Request 2 carries attempt 1's error, as the tool message answering the bad call.
	const feedback = toolMessages(fake.requests[1].body).find(
		(message) => message.tool_call_id === 'call_bad',
	);
	if (!feedback)
		throw new Error(
			`request 2 has no tool message for call_bad: ${JSON.stringify(fake.requests[1].body.messages).slice(0, 1000)}`,
		);
	for (const expected of ["invalid arguments for tool 'Hash_Text'", 'text']) {
		if (!feedback.content.includes(expected))
			throw new Error(`attempt 1's error text lacks '${expected}': ${feedback.content}`);
	}
	if (!/string/i.test(feedback.content))
		throw new Error(`attempt 1's error does not say the type is wrong: ${feedback.content}`);
	const [output] = nodeOutput(result, 'Validator');
	if (output?.tool !== 'Hash_Text')
		throw new Error(
			`output.tool is ${JSON.stringify(output?.tool)}: ${JSON.stringify(output).slice(0, 500)}`,
		);
	if (output.attempts !== 2) throw new Error(`output.attempts is ${output.attempts}, expected 2`);
	if (output.arguments?.text !== TOOL_INPUT.text)
		throw new Error(`output.arguments: ${JSON.stringify(output.arguments)}`);
	if (!JSON.stringify(output.result).includes(EXPECTED.sha256))
		throw new Error(
			`output.result lacks ${EXPECTED.sha256}: ${JSON.stringify(output.result).slice(0, 500)}`,
		);
	const hashRuns = runDataOf(result)['Hash Text']?.length ?? 0;
	if (hashRuns !== 1)
		throw new Error(
			`'Hash Text' ran ${hashRuns} times in n8n's execution data, expected exactly 1`,
		);
	scope.note(
		`attempts 2; request 2 carried: ${JSON.stringify(feedback.content.split('\n').slice(0, 2).join(' '))}; Crypto ran once (real SHA-256 ${EXPECTED.sha256.slice(0, 12)}…)`,
	);
}

// ---------------------------------------------------------------------------------------------
// nested

/**
 * The scripted child model: asserts the Hash Text schema and that its user message is the
 * task the parent sent; calls the tool; answers with the digest in one sentence.
 * @param {string} model
 * @param {Array<{ usage: any }>} replies collects every reply's usage
 * @returns {(request: any, fake: any) => any}
 */
function childModel(model, replies) {
	return (request, fake) => {
		const body = request.body;
		assertHashSchema(body);
		const prompt = userText(body);
		if (prompt !== RESEARCHER_TASK)
			throw new Error(
				`the child's user message is ${JSON.stringify(prompt)}, expected the parent's task ${JSON.stringify(RESEARCHER_TASK)}`,
			);
		const results = toolMessages(body);
		let reply;
		if (results.length === 0) {
			reply = fake.toolCallReply(
				[{ id: 'call_child_hash', name: 'Hash_Text', arguments: { text: TOOL_INPUT.text } }],
				{ model },
			);
		} else {
			const digest = /[0-9a-f]{64}/.exec(results[0].content)?.[0];
			if (!digest)
				throw new Error(
					`the child's tool result has no digest: ${results[0].content.slice(0, 500)}`,
				);
			reply = fake.textReply(childAnswer(digest), { model });
		}
		replies.push({ usage: replyUsage(reply) });
		return matchStreaming(request, reply);
	};
}

/** The child's final answer for a digest. */
export function childAnswer(digest) {
	return `The SHA-256 digest is ${digest}.`;
}

/**
 * The scripted parent model: asserts the Researcher schema (task: string), calls it once,
 * then answers with what came back (recorded in `seen`).
 * @param {string} model
 * @param {Array<{ usage: any }>} replies
 * @param {{ toolResult?: string }} seen
 * @returns {(request: any, fake: any) => any}
 */
function parentModel(model, replies, seen) {
	return (request, fake) => {
		const body = request.body;
		assertToolSchema(body, 'Researcher', {
			properties: { task: 'string' },
			required: ['task'],
			description: RESEARCHER_DESCRIPTION,
		});
		const results = toolMessages(body);
		let reply;
		if (results.length === 0) {
			reply = fake.toolCallReply(
				[{ id: 'call_researcher', name: 'Researcher', arguments: { task: RESEARCHER_TASK } }],
				{ model },
			);
		} else {
			const result = results.find((entry) => entry.tool_call_id === 'call_researcher');
			if (!result)
				throw new Error(
					`no tool result for call_researcher: ${JSON.stringify(results).slice(0, 500)}`,
				);
			seen.toolResult = result.content;
			reply = fake.textReply(`Researcher reported: ${result.content}`, { model });
		}
		replies.push({ usage: replyUsage(reply) });
		return matchStreaming(request, reply);
	};
}

/**
 * A fake serving both a parent and a child model (told apart by model id).
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @param {{ parent: string, child: string }} models
 */
export async function parentAndChildFake(scope, models) {
	/** @type {Array<{ usage: any }>} */
	const parentReplies = [];
	/** @type {Array<{ usage: any }>} */
	const childReplies = [];
	/** @type {{ toolResult?: string }} */
	const seen = {};
	const parent = parentModel(models.parent, parentReplies, seen);
	const child = childModel(models.child, childReplies);
	const fake = await scope.startFake((request, fakeModule) => {
		checkRequest(request);
		if (request.body?.model === models.parent) return parent(request, fakeModule);
		if (request.body?.model === models.child) return child(request, fakeModule);
		throw new Error(`unknown model ${JSON.stringify(request.body?.model)}`);
	});
	return { fake, parentReplies, childReplies, seen };
}

/**
 * The nested Researcher node (its own OpenRouter credential, the default `$fromAI('task')` prompt).
 * @param {{ id: string, name: string }} credential
 * @param {string} model
 * @param {Record<string, unknown>} [options] the node's options
 */
export function researcherNode(credential, model, options = {}) {
	return node(
		'Researcher',
		'n8n-nodes-toolbridge.agentOrchestrator',
		1,
		{
			authentication: 'openRouterApi',
			mode: 'nested',
			model,
			toolDescription: RESEARCHER_DESCRIPTION,
			prompt: "={{ $fromAI('task', 'The task for this agent', 'string') }}",
			options,
		},
		{ openRouterApi: credential },
	);
}

/**
 * Nested under our orchestrator, with the parent's tool calls run in-process and by n8n's engine.
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @returns {Promise<void>}
 */
export async function nestedUnderOrchestrator(scope) {
	/** @type {string[]} */
	const failures = [];
	for (const toolExecution of ['inProcess', 'engine']) {
		try {
			await nestedUnderOrchestratorWith(scope, toolExecution);
		} catch (error) {
			failures.push(`[${toolExecution}] ${/** @type {Error} */ (error).message}`);
		}
	}
	if (failures.length > 0) throw new Error(failures.join('\n'));
}

/**
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @param {string} toolExecution the parent's "Tool Execution" option
 * @returns {Promise<void>}
 */
async function nestedUnderOrchestratorWith(scope, toolExecution) {
	const models = { parent: `fake/parent-${toolExecution}`, child: `fake/child-${toolExecution}` };
	const { fake, parentReplies, childReplies, seen } = await parentAndChildFake(scope, models);
	const suffix = toolExecution === 'engine' ? '-e' : '-i';
	const result = await importAndExecute(
		scope,
		fake.baseUrl,
		(credential) =>
			workflow({
				id: `wf-${scope.id}${suffix}`.slice(0, 21),
				name: `E2E ${scope.id} ${toolExecution}`,
				nodes: [
					node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
					node(
						'Parent',
						'n8n-nodes-toolbridge.agentOrchestrator',
						1,
						{
							authentication: 'openRouterApi',
							mode: 'full',
							model: models.parent,
							prompt: 'Ask the researcher for the digest and report it.',
							options: { toolExecution, returnIntermediateSteps: true },
						},
						{ openRouterApi: credential },
					),
					// The child returns its usage with its answer (the engine path rolls it up from there).
					researcherNode(credential, models.child, { returnIntermediateSteps: true }),
					hashTextTool(),
				],
				connections: connections([
					['Start', 'Parent'],
					['Researcher', 'Parent', 'ai_tool'],
					['Hash Text', 'Researcher', 'ai_tool'],
				]),
			}),
		suffix,
	);
	await fake.close();
	fake.assertNoFailures();
	if (parentReplies.length !== 2 || childReplies.length !== 2) {
		throw new Error(
			`requests: parent ${parentReplies.length}, child ${childReplies.length}; expected 2 each`,
		);
	}
	const expectedAnswer = childAnswer(EXPECTED.sha256);
	if (seen.toolResult !== expectedAnswer) {
		throw new Error(
			`the parent's tool message is ${JSON.stringify(seen.toolResult)}, expected the child's plain text ${JSON.stringify(expectedAnswer)}`,
		);
	}
	const [output] = nodeOutput(result, 'Parent');
	if (!String(output?.output).includes(EXPECTED.sha256))
		throw new Error(
			`the parent's answer lacks the digest: ${JSON.stringify(output).slice(0, 600)}`,
		);
	const runData = runDataOf(result);
	const researcherRuns = runData.Researcher?.length ?? 0;
	const hashRuns = runData['Hash Text']?.length ?? 0;
	if (researcherRuns < 1)
		throw new Error(
			`no run of 'Researcher' in n8n's execution data; ran: ${Object.keys(runData).join(', ')}`,
		);
	if (!JSON.stringify(runData.Researcher).includes(EXPECTED.sha256))
		throw new Error(
			`the Researcher run data lacks the digest: ${JSON.stringify(runData.Researcher).slice(0, 600)}`,
		);
	if (hashRuns < 1) throw new Error(`no run of 'Hash Text' in n8n's execution data`);
	const all = [...parentReplies, ...childReplies];
	const expectedTokens = all.reduce((sum, reply) => sum + reply.usage.total_tokens, 0);
	const parentOnly = parentReplies.reduce((sum, reply) => sum + reply.usage.total_tokens, 0);
	const usage = output.usage ?? {};
	if (usage.totalTokens !== expectedTokens) {
		throw new Error(
			`the parent's usage.totalTokens is ${usage.totalTokens}; parent + child replies total ${expectedTokens} (parent alone ${parentOnly})`,
		);
	}
	const expectedCost = all.reduce((sum, reply) => sum + (reply.usage.cost ?? 0), 0);
	if (Math.abs((usage.cost ?? 0) - expectedCost) > 1e-12)
		throw new Error(`the parent's usage.cost is ${usage.cost}, expected ${expectedCost}`);
	scope.note(
		`[${toolExecution}] parent's tool message = the child's plain text; Researcher runs ${researcherRuns}, Hash Text runs ${hashRuns}; usage rolled up (${usage.totalTokens} tokens, cost ${usage.cost})`,
	);
}

/**
 * Our nested orchestrator as a tool of n8n's AI Agent v3.1 (OpenRouter model node → fake).
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @returns {Promise<void>}
 */
export async function nestedUnderN8nAgent(scope) {
	const models = { parent: 'fake/n8n-agent-parent', child: 'fake/nested-child' };
	const { fake, parentReplies, childReplies, seen } = await parentAndChildFake(scope, models);
	const result = await importAndExecute(scope, fake.baseUrl, (credential) =>
		workflow({
			id: `wf-${scope.id}`.slice(0, 21),
			name: `E2E ${scope.id}`,
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
				node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, {
					promptType: 'define',
					text: 'Ask the researcher for the digest and report it.',
					options: {},
				}),
				node(
					'OpenRouter Model',
					'@n8n/n8n-nodes-langchain.lmChatOpenRouter',
					1,
					{ model: models.parent, options: {} },
					{ openRouterApi: credential },
				),
				researcherNode(credential, models.child),
				hashTextTool(),
			],
			connections: connections([
				['Start', 'AI Agent'],
				['OpenRouter Model', 'AI Agent', 'ai_languageModel'],
				['Researcher', 'AI Agent', 'ai_tool'],
				['Hash Text', 'Researcher', 'ai_tool'],
			]),
		}),
	);
	fake.assertNoFailures();
	if (parentReplies.length !== 2 || childReplies.length !== 2) {
		throw new Error(
			`requests: parent ${parentReplies.length}, child ${childReplies.length}; expected 2 each`,
		);
	}
	const researcherRuns = runDataOf(result).Researcher ?? [];
	const researcherInput = JSON.stringify(
		researcherRuns.map((/** @type {any} */ run) => run.inputOverride ?? null),
	);
	const expectedAnswer = childAnswer(EXPECTED.sha256);
	const [output] = nodeOutput(result, 'AI Agent');
	scope.note(
		`n8n's agent → Researcher: ${researcherRuns.length} run(s); tool message the parent model got: ${JSON.stringify(seen.toolResult).slice(0, 300)}`,
	);
	scope.note(`Researcher run input: ${researcherInput.slice(0, 300)}`);
	if (!String(output?.output).includes(EXPECTED.sha256))
		throw new Error(
			`the AI Agent's answer lacks the digest: ${JSON.stringify(output).slice(0, 600)}`,
		);
	// n8n 2.41's agent JSON-encodes the items of every engine-run tool (`buildObservation`):
	// plain text is impossible there; the answer must be encoded once, as the item's `output`.
	let items;
	try {
		items = JSON.parse(String(seen.toolResult));
	} catch {
		throw new Error(
			`the parent's tool message is not n8n's JSON item list: ${JSON.stringify(seen.toolResult)}`,
		);
	}
	if (
		!Array.isArray(items) ||
		items.length !== 1 ||
		Object.keys(items[0]).join() !== 'output' ||
		items[0].output !== expectedAnswer
	) {
		throw new Error(
			`the parent's tool message is ${JSON.stringify(seen.toolResult)}, expected [{"output": <the child's plain text>}] (encoded once)`,
		);
	}
	if (researcherRuns.length !== 1 || !researcherInput.includes('"task"'))
		throw new Error(
			`n8n did not run Researcher once as a node with the task as input: ${researcherInput.slice(0, 500)}`,
		);
}
