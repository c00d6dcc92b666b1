// @ts-check
/**
 * Queue mode: our orchestrator in nested mode as a tool of n8n's AI Agent v3.1, triggered by a
 * production webhook; a worker runs the parent agent, the engine runs Researcher as a node,
 * Researcher runs its own tool (Crypto) in-process and answers in plain text.
 */
import { assertToolSchema, matchStreaming, toolMessages } from '../lib/fake-model.mjs';
import { connections, node, workflow } from '../lib/workflows.mjs';
import {
	EXPECTED,
	HASH_TOOL_DESCRIPTION,
	TOOL_INPUT,
	hashTextTool,
} from '../scenarios/tool-fixtures.mjs';
import {
	fakeCredential,
	messagesOf,
	postJson,
	textOf,
	webhookNode,
	workflowIdFor,
} from './common.mjs';

const PARENT_MODEL = 'fake/queue-parent';
const CHILD_MODEL = 'fake/queue-child';
const RESEARCHER_DESCRIPTION =
	'Researches a question with its own tools and answers in one short sentence.';
const TASK = `Compute the SHA-256 hex digest of this exact text: ${TOOL_INPUT.text}`;

/**
 * @param {import('./scope.mjs').QueueScope} scope
 * @returns {Promise<void>}
 */
export async function queueNestedUnderN8nAgent(scope) {
	const topology = scope.topology;
	/** @type {{ parentToolResult?: string, childRequests: number, parentRequests: number }} */
	const seen = { childRequests: 0, parentRequests: 0 };
	const fake = await scope.startFake((request, fakeModule) => {
		const body = request.body;
		const results = toolMessages(body);
		if (body?.model === PARENT_MODEL) {
			seen.parentRequests += 1;
			assertToolSchema(body, 'Researcher', {
				properties: { task: 'string' },
				required: ['task'],
				description: RESEARCHER_DESCRIPTION,
			});
			if (results.length === 0)
				return matchStreaming(
					request,
					fakeModule.toolCallReply(
						[{ id: 'call_researcher', name: 'Researcher', arguments: { task: TASK } }],
						{ model: PARENT_MODEL },
					),
				);
			seen.parentToolResult = results[0].content;
			return matchStreaming(
				request,
				fakeModule.textReply(`Researcher reported: ${results[0].content}`, { model: PARENT_MODEL }),
			);
		}
		if (body?.model === CHILD_MODEL) {
			seen.childRequests += 1;
			assertToolSchema(body, 'Hash_Text', {
				properties: { text: 'string' },
				required: ['text'],
				description: HASH_TOOL_DESCRIPTION,
			});
			const user = messagesOf(body).find((/** @type {any} */ message) => message.role === 'user');
			if (textOf(user) !== TASK)
				throw new Error(`the child's task is ${JSON.stringify(textOf(user))}`);
			if (results.length === 0)
				return matchStreaming(
					request,
					fakeModule.toolCallReply(
						[{ id: 'call_child', name: 'Hash_Text', arguments: { text: TOOL_INPUT.text } }],
						{ model: CHILD_MODEL },
					),
				);
			const digest = /[0-9a-f]{64}/.exec(results[0].content)?.[0];
			return matchStreaming(
				request,
				fakeModule.textReply(`The SHA-256 digest is ${digest}.`, { model: CHILD_MODEL }),
			);
		}
		throw new Error(`unknown model ${JSON.stringify(body?.model)}`);
	});
	const credential = await fakeCredential(scope, fake.baseUrl);
	const workflowId = await topology.deployWorkflow(
		workflow({
			id: workflowIdFor(scope),
			name: `E2E ${scope.id}`,
			nodes: [
				webhookNode('tb-queue-nested', 'lastNode'),
				node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, {
					promptType: 'define',
					text: 'Ask the researcher for the digest and report it.',
					options: {},
				}),
				node(
					'OpenRouter Model',
					'@n8n/n8n-nodes-langchain.lmChatOpenRouter',
					1,
					{ model: PARENT_MODEL, options: {} },
					{ openRouterApi: credential },
				),
				node(
					'Researcher',
					'n8n-nodes-toolbridge.agentOrchestrator',
					1,
					{
						authentication: 'openRouterApi',
						mode: 'nested',
						model: CHILD_MODEL,
						toolDescription: RESEARCHER_DESCRIPTION,
						prompt: "={{ $fromAI('task', 'The task for this agent', 'string') }}",
						options: {},
					},
					{ openRouterApi: credential },
				),
				hashTextTool(),
			],
			connections: connections([
				['Webhook', 'AI Agent'],
				['OpenRouter Model', 'AI Agent', 'ai_languageModel'],
				['Researcher', 'AI Agent', 'ai_tool'],
				['Hash Text', 'Researcher', 'ai_tool'],
			]),
		}),
	);
	const answer = await postJson(topology.mainProcess, 'tb-queue-nested', { run: 'nested' });
	fake.assertNoFailures();
	const expectedChild = `The SHA-256 digest is ${EXPECTED.sha256}.`;
	if (!String(answer?.output).includes(EXPECTED.sha256))
		throw new Error(
			`the AI Agent's answer lacks the digest: ${JSON.stringify(answer).slice(0, 500)}`,
		);
	// n8n's agent JSON-encodes the items of every engine-run tool: [{"output": <child's text>}].
	const items = JSON.parse(String(seen.parentToolResult));
	if (!Array.isArray(items) || items.length !== 1 || items[0].output !== expectedChild)
		throw new Error(`the parent read ${JSON.stringify(seen.parentToolResult)}`);
	if (seen.parentRequests !== 2 || seen.childRequests !== 2)
		throw new Error(
			`requests: parent ${seen.parentRequests}, child ${seen.childRequests}; expected 2 each`,
		);
	const [execution] = await topology.executionsOf(workflowId);
	const { status, data } = await topology.waitForExecution(execution.id);
	if (status !== 'success') throw new Error(`execution ${execution.id} is '${status}'`);
	const runData = data.resultData.runData;
	const researcherRuns = runData.Researcher ?? [];
	if (researcherRuns.length !== 1 || !JSON.stringify(researcherRuns).includes(EXPECTED.sha256))
		throw new Error(`Researcher runs in the log: ${JSON.stringify(researcherRuns).slice(0, 500)}`);
	const jobs = topology.jobsOf(execution.id);
	if (jobs.length !== 1)
		throw new Error(`expected one worker job, logs show ${JSON.stringify(jobs)}`);
	scope.note(
		`execution ${execution.id} on ${jobs[0].worker}; Researcher ran once as a node (engine), Hash Text runs ${runData['Hash Text']?.length ?? 0}; the parent read ${JSON.stringify(seen.parentToolResult).slice(0, 120)}`,
	);
}
