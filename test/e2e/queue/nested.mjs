// @ts-check
/**
 * Queue mode: our orchestrator in nested mode as a tool of n8n's AI Agent v3.1, triggered by a
 * production webhook; a worker runs the parent agent, the engine runs Researcher as a node,
 * Researcher runs its own tool (Crypto) in-process and answers in plain text.
 */
import { n8nAgentOverResearcher, parentAndChildFake } from '../lib/nested-fixtures.mjs';
import { EXPECTED } from '../lib/tool-fixtures.mjs';
import { deployScenarioWorkflow, webhookNode } from './common.mjs';

const MODELS = { parent: 'fake/queue-parent', child: 'fake/queue-child' };

/**
 * @param {import('./scope.mjs').QueueScope} scope
 * @returns {Promise<void>}
 */
export async function queueNestedUnderN8nAgent(scope) {
	const topology = scope.topology;
	const { fake, parentReplies, childReplies, seen } = await parentAndChildFake(scope, MODELS);
	const workflowId = await deployScenarioWorkflow(scope, fake, (credential) =>
		n8nAgentOverResearcher({
			trigger: webhookNode('tb-queue-nested', 'lastNode'),
			credential,
			models: MODELS,
		}),
	);
	const answer = await topology.mainProcess.postJson('tb-queue-nested', { run: 'nested' });
	fake.assertNoFailures();
	const expectedChild = `The SHA-256 digest is ${EXPECTED.sha256}.`;
	if (!String(answer?.output).includes(EXPECTED.sha256))
		throw new Error(
			`the AI Agent's answer lacks the digest: ${JSON.stringify(answer).slice(0, 500)}`,
		);
	// n8n's agent JSON-encodes the items of every engine-run tool: [{"output": <child's text>}].
	const items = JSON.parse(String(seen.toolResult));
	if (!Array.isArray(items) || items.length !== 1 || items[0].output !== expectedChild)
		throw new Error(`the parent read ${JSON.stringify(seen.toolResult)}`);
	if (parentReplies.length !== 2 || childReplies.length !== 2)
		throw new Error(
			`requests: parent ${parentReplies.length}, child ${childReplies.length}; expected 2 each`,
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
		`execution ${execution.id} on ${jobs[0].worker}; Researcher ran once as a node (engine), Hash Text runs ${runData['Hash Text']?.length ?? 0}; the parent read ${JSON.stringify(seen.toolResult).slice(0, 120)}`,
	);
}
