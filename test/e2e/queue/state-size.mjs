// @ts-check
/**
 * State size: the orchestrator keeps its loop state inside the execution (engine-request
 * metadata), and n8n stores the execution in Postgres. Run the full-mode loop for 1, 10 and 30
 * tool iterations (one Crypto call per iteration) and read the bytes n8n stored
 * (`execution_data.data`). Growth per iteration must stay flat: a copy of the whole history per
 * step would make the 10 → 30 increment per iteration several times the 1 → 10 one.
 */
import { checkRequest, matchStreaming, toolMessages } from '../lib/fake-model.mjs';
import { hashTextTool } from '../lib/tool-fixtures.mjs';
import { connections } from '../lib/workflows.mjs';
import { deployScenarioWorkflow, orchestratorNode, webhookNode } from './common.mjs';

const MODEL = 'fake/queue-size';
export const ITERATIONS = [1, 10, 30];
/** The 10 → 30 per-iteration growth may be at most this multiple of the 1 → 10 one. */
const MAX_GROWTH_RATIO = 1.5;

/**
 * @param {import('./scope.mjs').QueueScope} scope
 * @returns {Promise<void>}
 */
export async function queueStateSize(scope) {
	const topology = scope.topology;
	const fake = await scope.startFake((request, fakeModule) => {
		checkRequest(request, MODEL);
		const body = request.body;
		const wanted = Number(/Run (\d+) iterations/.exec(JSON.stringify(body.messages))?.[1]);
		const done = toolMessages(body).length;
		if (done < wanted) {
			return matchStreaming(
				request,
				fakeModule.toolCallReply(
					[
						{
							id: `call_${done + 1}`,
							name: 'Hash_Text',
							arguments: { text: `step ${done + 1} of ${wanted}` },
						},
					],
					{ model: MODEL },
				),
			);
		}
		return matchStreaming(
			request,
			fakeModule.textReply(`Done after ${done} tool calls.`, { model: MODEL }),
		);
	});
	const workflowId = await deployScenarioWorkflow(scope, fake, (credential) => ({
		nodes: [
			webhookNode('tb-queue-size', 'lastNode'),
			orchestratorNode(credential, MODEL, {
				maxIterations: 40,
				repeatedCallLimit: 40,
				returnIntermediateSteps: false,
			}),
			hashTextTool(),
		],
		connections: connections([
			['Webhook', 'Agent Orchestrator'],
			['Hash Text', 'Agent Orchestrator', 'ai_tool'],
		]),
	}));
	/** @type {Array<{ iterations: number, bytes: number, executionId: string, hashRuns: number, orchestratorRuns: number }>} */
	const sizes = [];
	for (const iterations of ITERATIONS) {
		const answer = await topology.mainProcess.postJson('tb-queue-size', {
			message: `Run ${iterations} iterations.`,
		});
		if (answer?.output !== `Done after ${iterations} tool calls.`)
			throw new Error(`answer for ${iterations}: ${JSON.stringify(answer).slice(0, 300)}`);
		const executions = await topology.executionsOf(workflowId);
		const execution = executions.at(-1);
		if (!execution) throw new Error('no execution');
		const { status, data } = await topology.waitForExecution(execution.id);
		if (status !== 'success') throw new Error(`execution ${execution.id} is '${status}'`);
		const runData = data.resultData.runData;
		const hashRuns = runData['Hash Text']?.length ?? 0;
		if (hashRuns !== iterations)
			throw new Error(`${iterations} iterations: Hash Text has ${hashRuns} runs in the log`);
		sizes.push({
			iterations,
			bytes: await topology.storedDataBytes(execution.id),
			executionId: execution.id,
			hashRuns,
			orchestratorRuns: runData['Agent Orchestrator']?.length ?? 0,
		});
	}
	fake.assertNoFailures();
	const [one, ten, thirty] = sizes;
	const early = (ten.bytes - one.bytes) / (ten.iterations - one.iterations);
	const late = (thirty.bytes - ten.bytes) / (thirty.iterations - ten.iterations);
	const ratio = late / early;
	const kb = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(1)} KB`;
	const figures = sizes
		.map((size) => `${size.iterations} → ${kb(size.bytes)} (${size.bytes} B)`)
		.join(', ');
	scope.figure(
		`state size (stored execution_data.data in Postgres, full mode, engine, 1 Crypto call per iteration): ${figures}; per iteration ${Math.round(early)} B (1→10) and ${Math.round(late)} B (10→30), ratio ${ratio.toFixed(2)}`,
	);
	scope.note(
		`stored bytes: ${figures}; Agent Orchestrator runs in the log: ${sizes.map((size) => size.orchestratorRuns).join(', ')}; growth per iteration ${Math.round(early)} B then ${Math.round(late)} B (ratio ${ratio.toFixed(2)}, limit ${MAX_GROWTH_RATIO})`,
	);
	if (!(ratio <= MAX_GROWTH_RATIO)) {
		throw new Error(
			`stored execution data grows faster than linearly: ${Math.round(early)} B per iteration from 1 to 10, ${Math.round(late)} B from 10 to 30 (ratio ${ratio.toFixed(2)} > ${MAX_GROWTH_RATIO}): ${figures}`,
		);
	}
}
