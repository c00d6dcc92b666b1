// @ts-check
/**
 * Queue mode, full mode with the engine driver, triggered by a production webhook on main:
 * a worker runs the execution; each tool call is a node run in the execution log that n8n
 * stores in Postgres; the answer comes back to the HTTP caller through main.
 *
 * Also the load row: 30 concurrent webhook executions of the same kind of workflow across both
 * workers; every answer carries its own input's results, and every tool call ran exactly once,
 * counted at the HTTP sink the Record Text tool posts to.
 */
import { createHash } from 'node:crypto';

import {
	assertToolSchema,
	checkRequest,
	matchStreaming,
	toolMessages,
} from '../lib/fake-model.mjs';
import { recordTextTool, sinkDigest, startHttpSink } from '../lib/http-sink.mjs';
import { assertHashToolSchema, hashTextTool } from '../lib/tool-fixtures.mjs';
import { connections, node } from '../lib/workflows.mjs';
import {
	deployScenarioWorkflow,
	messagesOf,
	orchestratorNode,
	textOf,
	webhookNode,
} from './common.mjs';

const MODEL = 'fake/queue-full';

/**
 * SHA-256 hex of a text (what the Crypto node must produce).
 * @param {string} text
 * @returns {string}
 */
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The token a prompt carries: `Process token <token>.` */
const TOKEN_PATTERN = /Process token (\S+)\./;

/**
 * The scripted model: from the prompt's token, call Hash_Text and Record_Text (in parallel) with
 * it; then answer with both results. Stateless: everything comes from the request, so an answer
 * is only right when the execution's own state reached the model.
 * @returns {(request: any, fake: any) => any}
 */
function tokenModel() {
	return (request, fake) => {
		checkRequest(request, MODEL);
		const body = request.body;
		assertHashToolSchema(body);
		assertToolSchema(body, 'Record_Text', { properties: { text: 'string' }, required: ['text'] });
		const user = messagesOf(body).find((/** @type {any} */ message) => message.role === 'user');
		const token = TOKEN_PATTERN.exec(textOf(user))?.[1];
		if (!token) throw new Error(`no token in the prompt: ${textOf(user).slice(0, 200)}`);
		const results = toolMessages(body);
		if (results.length === 0) {
			return matchStreaming(
				request,
				fake.toolCallReply(
					[
						{ id: `call_hash_${token}`, name: 'Hash_Text', arguments: { text: token } },
						{ id: `call_record_${token}`, name: 'Record_Text', arguments: { text: token } },
					],
					{ model: MODEL },
				),
			);
		}
		const hash = results.find((result) => result.tool_call_id === `call_hash_${token}`);
		const record = results.find((result) => result.tool_call_id === `call_record_${token}`);
		if (!hash || !record || results.length !== 2)
			throw new Error(`tool results for ${token}: ${JSON.stringify(results).slice(0, 800)}`);
		const digest = /[0-9a-f]{64}/.exec(hash.content)?.[0];
		const receipt = /"digest":"([0-9a-f]{64})"/.exec(record.content.replace(/\\"/g, '"'))?.[1];
		return matchStreaming(
			request,
			fake.textReply(`token=${token} sha256=${digest} receipt=${receipt}`, { model: MODEL }),
		);
	};
}

/**
 * Deploy Webhook → Orchestrator (full, engine) ← Hash Text + Record Text.
 * @param {import('./scope.mjs').QueueScope} scope
 * @param {string} path
 * @returns {Promise<{ workflowId: string, fake: any, sink: Awaited<ReturnType<typeof startHttpSink>> }>}
 */
async function deployTokenWorkflow(scope, path) {
	const fake = await scope.startFake(tokenModel());
	const sink = await startHttpSink();
	scope.cleanups.push(() => sink.close());
	const workflowId = await deployScenarioWorkflow(scope, fake, (credential) => ({
		nodes: [
			webhookNode(path, 'lastNode'),
			orchestratorNode(credential, MODEL),
			hashTextTool(),
			recordTextTool(node, sink.url),
		],
		connections: connections([
			['Webhook', 'Agent Orchestrator'],
			['Hash Text', 'Agent Orchestrator', 'ai_tool'],
			['Record Text', 'Agent Orchestrator', 'ai_tool'],
		]),
	}));
	return { workflowId, fake, sink };
}

/**
 * Check one answer against its token.
 * @param {any} answer the webhook response body
 * @param {string} token
 * @returns {void}
 * @throws {Error} naming what is wrong
 */
function assertTokenAnswer(answer, token) {
	const output = String(answer?.output ?? '');
	const expected = `token=${token} sha256=${sha256(token)} receipt=${sinkDigest(token)}`;
	if (output !== expected)
		throw new Error(
			`the answer for ${token} is ${JSON.stringify(answer).slice(0, 400)}, expected output ${JSON.stringify(expected)}`,
		);
}

/**
 * Full mode on a worker, answer through main's webhook response.
 * @param {import('./scope.mjs').QueueScope} scope
 * @returns {Promise<void>}
 */
export async function queueFullWebhook(scope) {
	const topology = scope.topology;
	const { workflowId, fake, sink } = await deployTokenWorkflow(scope, 'tb-queue-full');
	const token = `full-${Date.now().toString(36)}`;
	const answer = await topology.mainProcess.postJson('tb-queue-full', {
		message: `Process token ${token}.`,
	});
	fake.assertNoFailures();
	assertTokenAnswer(answer, token);
	const executions = await topology.executionsOf(workflowId);
	if (executions.length !== 1)
		throw new Error(`expected 1 execution in Postgres, found ${JSON.stringify(executions)}`);
	const [execution] = executions;
	const { status, data } = await topology.waitForExecution(execution.id);
	if (status !== 'success') throw new Error(`execution ${execution.id} is '${status}'`);
	const runData = data.resultData.runData;
	const runs = (/** @type {string} */ name) => runData[name]?.length ?? 0;
	if (runs('Hash Text') !== 1 || runs('Record Text') !== 1) {
		throw new Error(
			`tool node runs in the execution log: Hash Text ${runs('Hash Text')}, Record Text ${runs('Record Text')}; expected 1 each (ran: ${Object.keys(runData).join(', ')})`,
		);
	}
	if (!JSON.stringify(runData['Hash Text']).includes(sha256(token)))
		throw new Error('the Hash Text run in the log lacks the digest');
	if (sink.countOf(token) !== 1)
		throw new Error(`the sink recorded ${token} ${sink.countOf(token)} times`);
	const jobs = topology.jobsOf(execution.id);
	if (jobs.length !== 1 || !jobs[0].finished)
		throw new Error(
			`expected one finished worker job for execution ${execution.id}, logs show ${JSON.stringify(jobs)}`,
		);
	if (topology.mainLog().includes(`Worker started execution ${execution.id} `))
		throw new Error('main ran the execution itself');
	scope.note(
		`execution ${execution.id} ran on ${jobs[0].worker} (job ${jobs[0].job}); Postgres log: Agent Orchestrator runs ${runs('Agent Orchestrator')}, Hash Text 1, Record Text 1; ` +
			`sink hits 1; model requests ${fake.requests.length}; answer returned by main: ${JSON.stringify(answer.output).slice(0, 90)}…`,
	);
}

/** Concurrent executions in the load row. */
export const LOAD_EXECUTIONS = 30;

/**
 * 30 concurrent webhook executions across both workers.
 * @param {import('./scope.mjs').QueueScope} scope
 * @returns {Promise<void>}
 */
export async function queueLoad(scope) {
	const topology = scope.topology;
	const { workflowId, fake, sink } = await deployTokenWorkflow(scope, 'tb-queue-load');
	const run = Date.now().toString(36);
	const tokens = Array.from(
		{ length: LOAD_EXECUTIONS },
		(_, index) => `load-${run}-${String(index).padStart(2, '0')}`,
	);
	const started = Date.now();
	const settled = await Promise.allSettled(
		tokens.map(async (token) => {
			const requestStart = Date.now();
			const answer = await topology.mainProcess.postJson('tb-queue-load', {
				message: `Process token ${token}.`,
			});
			return { token, answer, ms: Date.now() - requestStart };
		}),
	);
	const wall = Date.now() - started;
	fake.assertNoFailures();
	/** @type {string[]} */
	const problems = [];
	/** @type {number[]} */
	const latencies = [];
	settled.forEach((outcome, index) => {
		if (outcome.status === 'rejected') {
			problems.push(`${tokens[index]}: ${outcome.reason?.message ?? outcome.reason}`);
			return;
		}
		latencies.push(outcome.value.ms);
		try {
			assertTokenAnswer(outcome.value.answer, tokens[index]);
		} catch (error) {
			problems.push(/** @type {Error} */ (error).message);
		}
	});
	for (const token of tokens) {
		if (sink.countOf(token) !== 1)
			problems.push(`the sink recorded ${token} ${sink.countOf(token)} times`);
	}
	if (sink.records.length !== LOAD_EXECUTIONS)
		problems.push(`the sink got ${sink.records.length} records, expected ${LOAD_EXECUTIONS}`);
	if (fake.requests.length !== 2 * LOAD_EXECUTIONS)
		problems.push(
			`the model got ${fake.requests.length} requests, expected ${2 * LOAD_EXECUTIONS}`,
		);
	// The model's own log: each token's tool results reached it exactly once.
	/** @type {Map<string, number>} */
	const resultsSeen = new Map();
	for (const request of fake.requests) {
		for (const result of toolMessages(request.body))
			resultsSeen.set(result.tool_call_id, (resultsSeen.get(result.tool_call_id) ?? 0) + 1);
	}
	for (const token of tokens) {
		for (const id of [`call_hash_${token}`, `call_record_${token}`]) {
			if (resultsSeen.get(id) !== 1)
				problems.push(`the model read the result of ${id} ${resultsSeen.get(id) ?? 0} times`);
		}
	}
	const executions = await topology.executionsOf(workflowId);
	const notSuccess = executions.filter((execution) => execution.status !== 'success');
	if (executions.length !== LOAD_EXECUTIONS || notSuccess.length > 0) {
		problems.push(
			`Postgres holds ${executions.length} executions, not successful: ${JSON.stringify(notSuccess).slice(0, 400)}`,
		);
	}
	/** @type {Record<string, number>} */
	const perWorker = {};
	for (const execution of executions) {
		const jobs = topology.jobsOf(execution.id);
		if (jobs.length !== 1)
			problems.push(
				`execution ${execution.id} has ${jobs.length} worker jobs: ${JSON.stringify(jobs)}`,
			);
		for (const job of jobs) perWorker[job.worker] = (perWorker[job.worker] ?? 0) + 1;
	}
	const workersUsed = Object.keys(perWorker).length;
	if (workersUsed < 2)
		problems.push(`all executions ran on one worker: ${JSON.stringify(perWorker)}`);
	if (problems.length > 0)
		throw new Error(`${problems.length} problem(s):\n${problems.slice(0, 15).join('\n')}`);
	latencies.sort((a, b) => a - b);
	scope.note(
		`${LOAD_EXECUTIONS} concurrent executions in ${(wall / 1000).toFixed(1)} s (latency p50 ${(latencies[Math.floor(latencies.length / 2)] / 1000).toFixed(1)} s, max ${(latencies.at(-1) / 1000).toFixed(1)} s); ` +
			`per worker ${JSON.stringify(perWorker)}; every answer carries its own token's SHA-256 and receipt; sink hits ${sink.records.length} (1 per token); model requests ${fake.requests.length}`,
	);
}
