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
import { checkRequest, matchStreaming, toolMessages } from '../lib/fake-model.mjs';
import {
	childAnswer,
	n8nAgentOverResearcher,
	parentAndChildFake,
	researcherNode,
} from '../lib/nested-fixtures.mjs';
import { EXPECTED, TOOL_INPUT, assertHashToolSchema, hashTextTool } from '../lib/tool-fixtures.mjs';
import {
	agentOrchestratorNode,
	connections,
	manualTrigger,
	nodeOutput,
	runDataOf,
	scenarioWorkflow,
	workflow,
} from '../lib/workflows.mjs';

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
		assertHashToolSchema(body);
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
	const result = await scope.importAndExecute({
		fake,
		build: (credential) =>
			scenarioWorkflow(scope.id, {
				nodes: [
					manualTrigger(),
					agentOrchestratorNode(
						credential,
						{
							mode: 'validator',
							validatorTool: 'Hash Text',
							maxAttempts: 3,
							model,
							prompt: 'Hash the text I will give you.',
							options: {},
						},
						'Validator',
					),
					hashTextTool(),
				],
				connections: connections([
					['Start', 'Validator'],
					['Hash Text', 'Validator', 'ai_tool'],
				]),
			}),
	});
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
	const result = await scope.importAndExecute({
		fake,
		suffix,
		build: (credential) =>
			workflow({
				id: `wf-${scope.id}${suffix}`.slice(0, 21),
				name: `E2E ${scope.id} ${toolExecution}`,
				nodes: [
					manualTrigger(),
					agentOrchestratorNode(
						credential,
						{
							mode: 'full',
							model: models.parent,
							prompt: 'Ask the researcher for the digest and report it.',
							options: { toolExecution, returnIntermediateSteps: true },
						},
						'Parent',
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
	});
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
	const result = await scope.importAndExecute({
		fake,
		build: (credential) =>
			scenarioWorkflow(
				scope.id,
				n8nAgentOverResearcher({ trigger: manualTrigger(), credential, models }),
			),
	});
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
