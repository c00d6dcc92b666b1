// @ts-check
/**
 * n8n's Call n8n Workflow Tool (`toolWorkflow` 2.2) on the Agent Orchestrator in a real n8n:
 * the sub-workflow "Add numbers" (its own workflow, published as n8n 2.x requires for a
 * database sub-workflow) gets the model's `a` and `b` through `workflowInputs` with `$fromAI`;
 * the fake model is offered n8n's typed schema, calls the tool, and answers with the sum only
 * the sub-workflow computed. Engine path: the tool node runs as its own node in n8n's
 * execution data; in-process: the orchestrator invokes the tool n8n's node supplies.
 */
import { assertToolSchema, matchStreaming, toolMessages } from '../lib/fake-model.mjs';
import {
	agentOrchestratorNode,
	FAKE_API_KEY,
	connections,
	node,
	nodeOutput,
	openRouterCredential,
	runDataOf,
	runError,
	workflow,
} from '../lib/workflows.mjs';

/** The numbers the model sends, and the sum only the sub-workflow computes (with a marker). */
const ARGS = Object.freeze({ a: 1234, b: 8766 });
const SUM = 'sum=10000/sub-workflow';

/**
 * The sub-workflow: Execute Workflow Trigger declaring `a` and `b` (numbers) → Set `sum`.
 * @param {string} id
 * @returns {Record<string, unknown>}
 */
function addNumbersWorkflow(id) {
	return workflow({
		id,
		name: `E2E add numbers ${id}`,
		nodes: [
			node('When Executed by Another Workflow', 'n8n-nodes-base.executeWorkflowTrigger', 1.1, {
				workflowInputs: {
					values: [
						{ name: 'a', type: 'number' },
						{ name: 'b', type: 'number' },
					],
				},
			}),
			node('Sum', 'n8n-nodes-base.set', 3.4, {
				assignments: {
					assignments: [
						{
							id: 's',
							name: 'sum',
							value: '=sum={{ $json.a + $json.b }}/sub-workflow',
							type: 'string',
						},
					],
				},
				options: {},
			}),
		],
		connections: connections([['When Executed by Another Workflow', 'Sum']]),
	});
}

/**
 * The Call n8n Workflow Tool 2.2 calling `subWorkflowId` with `$fromAI` inputs. Tool name `Add_numbers`.
 * @param {string} subWorkflowId
 * @returns {import('../lib/workflows.mjs').WorkflowNode}
 */
function addNumbersTool(subWorkflowId) {
	const input = (/** @type {string} */ key) => ({
		id: key,
		displayName: key,
		required: false,
		defaultMatch: false,
		display: true,
		canBeUsedToMatch: true,
		type: 'number',
		removed: false,
	});
	return node('Add numbers', '@n8n/n8n-nodes-langchain.toolWorkflow', 2.2, {
		description: 'Adds two numbers in a sub-workflow',
		workflowId: { __rl: true, value: subWorkflowId, mode: 'list', cachedResultName: 'Add numbers' },
		workflowInputs: {
			mappingMode: 'defineBelow',
			value: {
				a: "={{ $fromAI('a', 'The first number', 'number') }}",
				b: "={{ $fromAI('b', 'The second number', 'number') }}",
			},
			matchingColumns: [],
			schema: [input('a'), input('b')],
			attemptToConvertTypes: false,
			convertFieldsToString: false,
		},
	});
}

/**
 * The scripted model: asserts n8n's schema for `Add_numbers`, calls it, answers with the result.
 * @returns {(request: any, fake: any) => any}
 */
function addNumbersModel() {
	return (request, fake) => {
		if (request.headers.authorization !== `Bearer ${FAKE_API_KEY}`)
			throw new Error('the credential API key did not arrive as a Bearer token');
		assertToolSchema(request.body, 'Add_numbers', {
			properties: { a: 'number', b: 'number' },
			required: ['a', 'b'],
			description: 'Adds two numbers in a sub-workflow',
		});
		const results = toolMessages(request.body);
		if (results.length === 0)
			return matchStreaming(
				request,
				fake.toolCallReply([{ id: 'call_add', name: 'Add_numbers', arguments: ARGS }]),
			);
		const result = results.find((each) => each.tool_call_id === 'call_add');
		if (!result?.content.includes(SUM))
			throw new Error(`the tool result lacks ${SUM}: ${JSON.stringify(results).slice(0, 600)}`);
		return matchStreaming(request, fake.textReply(`The sub-workflow says ${SUM}.`));
	};
}

/**
 * AgentOrchestrator (full mode) + Call n8n Workflow Tool → a published sub-workflow.
 * @param {'engine' | 'inProcess'} toolExecution
 * @returns {(scope: import('../lib/context.mjs').ScenarioScope) => Promise<void>}
 */
export function callWorkflowTool(toolExecution) {
	return async (scope) => {
		const fake = await scope.startFake(addNumbersModel());
		// n8n 2.x runs a database sub-workflow's published version. Publishing from the command
		// line sets the active version; the publication service (which only a running n8n
		// feeds) is switched off so that `n8n execute` reads it.
		const { n8n } = await scope.newN8n({
			extraEnv: { N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false' },
		});
		const credential = openRouterCredential(`cred-${scope.id}`.slice(0, 21), fake.baseUrl);
		await n8n.importCredentials([credential]);
		const subId = await n8n.importWorkflow(addNumbersWorkflow(`sub-${scope.id}`.slice(0, 21)));
		await n8n.cli(['publish:workflow', `--id=${subId}`]);
		const id = await n8n.importWorkflow(
			workflow({
				id: `wf-${scope.id}`.slice(0, 21),
				name: `E2E ${scope.id}`,
				nodes: [
					node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
					agentOrchestratorNode(
						{ id: credential.id, name: credential.name },
						{
							mode: 'full',
							model: 'fake/e2e-model',
							prompt: 'Add 1234 and 8766 with the tool.',
							options: { toolExecution },
						},
					),
					addNumbersTool(subId),
				],
				connections: connections([
					['Start', 'Agent Orchestrator'],
					['Add numbers', 'Agent Orchestrator', 'ai_tool'],
				]),
			}),
		);
		const run = await n8n.execute(id);
		if (!run.ok)
			throw new Error(
				`n8n execute failed: ${(run.result && runError(run.result)) ?? '(no error in output)'} (log ${run.logPath})\n${run.stdout.slice(-1500)}`,
			);
		fake.assertNoFailures();
		if (fake.requests.length !== 2)
			throw new Error(`the fake got ${fake.requests.length} requests, expected 2`);
		const [output] = nodeOutput(run.result, 'Agent Orchestrator');
		const answer = JSON.stringify(output);
		if (!answer.includes(SUM)) throw new Error(`the answer lacks ${SUM}: ${answer.slice(0, 400)}`);
		const toolRuns = runDataOf(run.result)['Add numbers'] ?? [];
		if (toolRuns.length !== 1)
			throw new Error(
				`'Add numbers' has ${toolRuns.length} runs in n8n's execution data, expected 1`,
			);
		if (!JSON.stringify(toolRuns[0].data).includes(SUM))
			throw new Error(
				`'Add numbers' run output lacks ${SUM}: ${JSON.stringify(toolRuns[0]).slice(0, 500)}`,
			);
		scope.note(
			`n8n's schema {a: number, b: number} offered; the published sub-workflow answered ${SUM}; 'Add numbers' runs: ${toolRuns.length}`,
		);
	};
}
