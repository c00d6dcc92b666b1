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
import { connections, node, nodeOutput, openRouterCredential, runDataOf, runError, workflow } from '../lib/workflows.mjs';
import { EXPECTED, addDaysTool, assertHashAndDateAnswer, hashAndDateModel, hashTextTool } from './tool-fixtures.mjs';

/**
 * Import a credential for the fake and the workflow, execute it, and return the result.
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @param {string} baseUrl fake base URL
 * @param {(credential: { id: string, name: string }) => Record<string, unknown>} buildWorkflow
 * @returns {Promise<any>} parsed run result
 * @throws {Error} when n8n reports the execution as failed
 */
async function importAndExecute(scope, baseUrl, buildWorkflow) {
	const n8n = await scope.run.cliN8n();
	const credential = openRouterCredential(`cred-${scope.id}`.slice(0, 21), baseUrl);
	await n8n.importCredentials([credential]);
	const id = await n8n.importWorkflow(buildWorkflow({ id: credential.id, name: credential.name }));
	const run = await n8n.execute(id);
	if (!run.ok) {
		const message = run.result ? runError(run.result) : undefined;
		throw new Error(`n8n execute failed: ${message ?? '(no error in output)'} (log ${run.logPath})\n${run.stdout.slice(-1500)}`);
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
	if (!hashRuns?.length) throw new Error(`no run of 'Hash Text' in the execution data; ran: ${Object.keys(runData).join(', ')}`);
	const hashOutput = JSON.stringify(hashRuns.map((/** @type {any} */ run) => run.data));
	if (!hashOutput.includes(EXPECTED.sha256)) throw new Error(`'Hash Text' run data lacks ${EXPECTED.sha256}: ${hashOutput.slice(0, 500)}`);
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
				node('OpenRouter Model', '@n8n/n8n-nodes-langchain.lmChatOpenRouter', 1, { model: 'fake/baseline-model', options: {} }, { openRouterApi: credential }),
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
	if (fake.requests.length !== 2) throw new Error(`the fake got ${fake.requests.length} requests, expected 2`);
	const [output] = nodeOutput(result, 'AI Agent');
	assertHashAndDateAnswer(output?.output);
	assertToolNodeRuns(result);
	scope.note(`n8n's agent sent typed schemas for Hash_Text/Add_Days (stream: ${fake.requests.map((request) => Boolean(request.body?.stream)).join('/')}) and answered with the real SHA-256 (${EXPECTED.sha256.slice(0, 12)}…)`);
}

/**
 * Our AgentOrchestrator (full mode, OpenRouter credential → fake) with the same tools.
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @returns {Promise<void>}
 */
export async function fullModeTools(scope) {
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
						options: {},
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
	if (fake.requests.length !== 2) throw new Error(`the fake got ${fake.requests.length} requests, expected 2`);
	const output = nodeOutput(result, 'Agent Orchestrator');
	assertHashAndDateAnswer(output);
	const toolRuns = ['Hash Text', 'Add Days'].map((name) => `${name}: ${runDataOf(result)[name]?.length ?? 0}`).join(', ');
	scope.note(
		`the orchestrator sent typed schemas and the manual toolDescription (stream: ${fake.requests.map((request) => Boolean(request.body?.stream)).join('/')}), ` +
			`answered with the real SHA-256; tool node runs in n8n's execution data: ${toolRuns}`,
	);
}

/**
 * A malformed `$fromAI` in a connected tool node: the run fails with an error that
 * names the node, the parameter and the position of the problem.
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @returns {Promise<void>}
 */
export async function badFromAi(scope) {
	const fake = await scope.startFake((request, fake) => matchStreaming(request, fake.textReply('No tools needed.')));
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
					{ authentication: 'openRouterApi', mode: 'full', model: 'fake/e2e-model', prompt: 'Hash something.', options: {} },
					{ openRouterApi: { id: credential.id, name: credential.name } },
				),
				{ ...hashTextTool(), name: 'Broken Hash', parameters: { ...hashTextTool().parameters, value: badValue } },
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
	for (const [what, expected] of [
		['node', 'Broken Hash'],
		['parameter', 'value'],
		['position', 'position'],
	]) {
		if (!message.includes(expected)) throw new Error(`the error does not name the ${what} ('${expected}'): ${message.slice(0, 600)}`);
	}
	scope.note(`error: ${message.split('\n')[0].slice(0, 200)}`);
}
