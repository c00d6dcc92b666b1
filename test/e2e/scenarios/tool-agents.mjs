// @ts-check
/**
 * Agents with real n8n-nodes-base tools (`$fromAI`) against the scripted fake model,
 * run with `n8n import:workflow` + `n8n execute`:
 *
 * - baseline: n8n's own AI Agent + OpenRouter Chat Model node. Independent of our node,
 *   it proves the harness, the fake and the workflow JSON against n8n itself.
 * - full mode: our AgentOrchestrator with the same tools and the same model script.
 */
import { matchStreaming } from '../lib/fake-model.mjs';
import {
	connections,
	node,
	nodeOutput,
	openRouterCredential,
	runDataOf,
	runError,
	workflow,
} from '../lib/workflows.mjs';
import {
	EXPECTED,
	TOOL_INPUT,
	addDaysTool,
	assertHashAndDateAnswer,
	hashAndDateModel,
	hashTextTool,
} from './tool-fixtures.mjs';

/**
 * Import a credential for the fake and the workflow, execute it, and return the result.
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @param {string} baseUrl fake base URL
 * @param {(credential: { id: string, name: string }) => Record<string, unknown>} buildWorkflow
 * @returns {Promise<any>} parsed run result
 * @throws {Error} when n8n reports the execution as failed
 */
export async function importAndExecute(scope, baseUrl, buildWorkflow) {
	const n8n = await scope.run.cliN8n();
	const credential = openRouterCredential(`cred-${scope.id}`.slice(0, 21), baseUrl);
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
 * Assert that a tool node ran as its own node in n8n's execution data, with the right output.
 * @param {any} result
 * @returns {void}
 * @throws {Error} otherwise
 */
function assertToolNodeRuns(result) {
	const runData = runDataOf(result);
	const hashRuns = runData['Hash Text'];
	if (!hashRuns?.length)
		throw new Error(
			`no run of 'Hash Text' in the execution data; ran: ${Object.keys(runData).join(', ')}`,
		);
	const hashOutput = JSON.stringify(hashRuns.map((/** @type {any} */ run) => run.data));
	if (!hashOutput.includes(EXPECTED.sha256))
		throw new Error(`'Hash Text' run data lacks ${EXPECTED.sha256}: ${hashOutput.slice(0, 500)}`);
}

/**
 * n8n's AI Agent v3.1 + OpenRouter Chat Model (pointed at the fake) + Crypto and Date & Time tools.
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @returns {Promise<void>}
 */
export async function baselineN8nAgent(scope) {
	const fake = await scope.startFake(hashAndDateModel({ model: 'fake/baseline-model' }));
	const result = await importAndExecute(scope, fake.baseUrl, (credential) =>
		workflow({
			id: `wf-${scope.id}`.slice(0, 21),
			name: `E2E ${scope.id}`,
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
				node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, {
					promptType: 'define',
					text: 'Hash the text and add three days to the date.',
					options: {},
				}),
				node(
					'OpenRouter Model',
					'@n8n/n8n-nodes-langchain.lmChatOpenRouter',
					1,
					{ model: 'fake/baseline-model', options: {} },
					{ openRouterApi: credential },
				),
				hashTextTool(),
				addDaysTool(),
			],
			connections: connections([
				['Start', 'AI Agent'],
				['OpenRouter Model', 'AI Agent', 'ai_languageModel'],
				['Hash Text', 'AI Agent', 'ai_tool'],
				['Add Days', 'AI Agent', 'ai_tool'],
			]),
		}),
	);
	fake.assertNoFailures();
	if (fake.requests.length !== 2)
		throw new Error(`the fake got ${fake.requests.length} requests, expected 2`);
	const [output] = nodeOutput(result, 'AI Agent');
	assertHashAndDateAnswer(output?.output);
	assertToolNodeRuns(result);
	scope.note(
		`n8n's agent sent typed schemas for Hash_Text/Add_Days (stream: ${fake.requests.map((request) => Boolean(request.body?.stream)).join('/')}) and answered with the real SHA-256 (${EXPECTED.sha256.slice(0, 12)}…)`,
	);
}

/**
 * Assert what the orchestrator sent the fake on its second request: the first turn's
 * assistant message with BOTH tool calls, then one `tool` message per call.
 * @param {any} body second request body
 * @returns {void}
 * @throws {Error} otherwise
 */
function assertToolTurnSent(body) {
	const messages = body?.messages ?? [];
	const assistant = messages.find(
		(/** @type {any} */ message) => message.role === 'assistant' && message.tool_calls?.length,
	);
	const ids = (assistant?.tool_calls ?? []).map((/** @type {any} */ call) => call.id).sort();
	if (JSON.stringify(ids) !== JSON.stringify(['call_days', 'call_hash'])) {
		throw new Error(
			`second request lacks the assistant tool_calls: ${JSON.stringify(messages).slice(0, 800)}`,
		);
	}
	const hashCall = assistant.tool_calls.find((/** @type {any} */ call) => call.id === 'call_hash');
	if (JSON.parse(hashCall.function.arguments).text !== TOOL_INPUT.text)
		throw new Error(`hash call arguments changed: ${hashCall.function.arguments}`);
}

/**
 * Our AgentOrchestrator (full mode, OpenRouter credential → fake) with the same tools.
 * `engine`: each tool call must be its own run of the tool node in n8n's execution data,
 * with the model's arguments as its input and the real result as its output.
 * `inProcess`: the node calls the tools itself (n8n still logs each call as a run).
 * @param {'engine' | 'inProcess'} toolExecution
 * @returns {(scope: import('../lib/context.mjs').ScenarioScope) => Promise<void>}
 */
export function fullModeTools(toolExecution) {
	return async (scope) => {
		const fake = await scope.startFake(hashAndDateModel({ model: 'fake/e2e-model' }));
		const result = await importAndExecute(scope, fake.baseUrl, (credential) =>
			workflow({
				id: `wf-${scope.id}`.slice(0, 21),
				name: `E2E ${scope.id}`,
				nodes: [
					node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
					node(
						'Agent Orchestrator',
						'n8n-nodes-toolbridge.agentOrchestrator',
						1,
						{
							authentication: 'openRouterApi',
							mode: 'full',
							model: 'fake/e2e-model',
							prompt: 'Hash the text and add three days to the date.',
							options: { toolExecution },
						},
						{ openRouterApi: credential },
					),
					hashTextTool(),
					addDaysTool(),
				],
				connections: connections([
					['Start', 'Agent Orchestrator'],
					['Hash Text', 'Agent Orchestrator', 'ai_tool'],
					['Add Days', 'Agent Orchestrator', 'ai_tool'],
				]),
			}),
		);
		fake.assertNoFailures();
		if (fake.requests.length !== 2)
			throw new Error(`the fake got ${fake.requests.length} requests, expected 2`);
		assertToolTurnSent(fake.requests[1].body);
		const output = nodeOutput(result, 'Agent Orchestrator');
		if (output.length !== 1)
			throw new Error(`the orchestrator returned ${output.length} items, expected 1`);
		assertHashAndDateAnswer(output[0]?.output ?? output[0]);
		const runData = runDataOf(result);
		const orchestratorRuns = runData['Agent Orchestrator']?.length ?? 0;
		if (toolExecution === 'engine') {
			// One run per tool call, each with the model's arguments as its (display) input.
			for (const [name, expectedInput, expectedOutput] of /** @type {const} */ ([
				['Hash Text', { text: TOOL_INPUT.text }, EXPECTED.sha256],
				['Add Days', { date: TOOL_INPUT.date, days: TOOL_INPUT.days }, EXPECTED.newDate],
			])) {
				const runs = runData[name] ?? [];
				if (runs.length !== 1)
					throw new Error(`'${name}' ran ${runs.length} times in n8n's execution data, expected 1`);
				const input = runs[0].inputOverride?.ai_tool?.[0]?.[0]?.json;
				for (const [key, value] of Object.entries(expectedInput)) {
					if (input?.[key] !== value)
						throw new Error(
							`'${name}' run input ${JSON.stringify(input)} lacks ${key}=${JSON.stringify(value)}`,
						);
				}
				const outputText = JSON.stringify(runs[0].data);
				if (!outputText.includes(expectedOutput))
					throw new Error(
						`'${name}' run output lacks ${expectedOutput}: ${outputText.slice(0, 500)}`,
					);
			}
			// Executed, requested the tools, resumed with their results: n8n logs it once.
			if (orchestratorRuns !== 1)
				throw new Error(
					`the orchestrator has ${orchestratorRuns} runs in the execution data, expected 1`,
				);
		} else {
			assertToolNodeRuns(result);
		}
		const toolRuns = ['Hash Text', 'Add Days']
			.map((name) => `${name}: ${runData[name]?.length ?? 0}`)
			.join(', ');
		scope.note(
			`typed schemas + manual toolDescription sent (stream: ${fake.requests.map((request) => Boolean(request.body?.stream)).join('/')}); ` +
				`answer has the real SHA-256 and date; execution data: ${toolRuns}, orchestrator runs: ${orchestratorRuns}`,
		);
	};
}

/**
 * A malformed `$fromAI` in a connected tool node: the run fails with an error that
 * names the node, the parameter and the position of the problem.
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @returns {Promise<void>}
 */
export async function badFromAi(scope) {
	const fake = await scope.startFake((request, fake) =>
		matchStreaming(request, fake.textReply('No tools needed.')),
	);
	const n8n = await scope.run.cliN8n();
	const credential = openRouterCredential(`cred-${scope.id}`.slice(0, 21), fake.baseUrl);
	await n8n.importCredentials([credential]);
	const badValue = "={{ $fromAI('bad key!', 'The text', 'string') }}";
	const id = await n8n.importWorkflow(
		workflow({
			id: `wf-${scope.id}`.slice(0, 21),
			name: `E2E ${scope.id}`,
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
				node(
					'Agent Orchestrator',
					'n8n-nodes-toolbridge.agentOrchestrator',
					1,
					{
						authentication: 'openRouterApi',
						mode: 'full',
						model: 'fake/e2e-model',
						prompt: 'Hash something.',
						options: {},
					},
					{ openRouterApi: { id: credential.id, name: credential.name } },
				),
				{
					...hashTextTool(),
					name: 'Broken Hash',
					parameters: { ...hashTextTool().parameters, value: badValue },
				},
			],
			connections: connections([
				['Start', 'Agent Orchestrator'],
				['Broken Hash', 'Agent Orchestrator', 'ai_tool'],
			]),
		}),
	);
	const run = await n8n.execute(id);
	if (run.ok) throw new Error('the run succeeded despite a malformed $fromAI key');
	const message = (run.result ? runError(run.result) : undefined) ?? run.stdout.slice(-1500);
	const position = badValue.indexOf("'bad key!'");
	for (const [what, expected] of [
		['node', "Node 'Broken Hash'"],
		['parameter', "parameter 'value'"],
		['position', `position ${position}`],
		['key found', "'bad key!'"],
		['what is allowed', 'allowed: 1 to 64 characters'],
	]) {
		if (!message.includes(expected))
			throw new Error(
				`the error does not name the ${what} ('${expected}'): ${message.slice(0, 600)}`,
			);
	}
	// The check runs before n8n builds the tools and before any model call.
	if (fake.requests.length !== 0)
		throw new Error(`the fake model was called ${fake.requests.length} times before the error`);
	scope.note(`error: ${message.split('\n').slice(0, 2).join(' ').slice(0, 240)}`);
}
