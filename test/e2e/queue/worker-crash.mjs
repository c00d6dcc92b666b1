// @ts-check
/**
 * Fault: the worker running an execution is SIGKILLed while the model is mid-stream.
 *
 * Streaming webhook → orchestrator (engine) ← Record Text (HTTP sink). The model first calls
 * Record_Text (the sink records it once), then starts streaming its answer and stalls after a
 * few deltas; once the client has read part of that answer, the worker is killed.
 *
 * What n8n 2.41 does is reported; what must hold: the execution leaves `running` within a
 * bound (Bull notices the lost lock, n8n fails the job — `maxStalledCount: 0` in
 * scaling.service.js means it is never re-run — and main records the failure), no tool call
 * ran more often than the model asked for it, and the HTTP client is not left hanging.
 */
import { checkRequest, matchStreaming, toolMessages } from '../lib/fake-model.mjs';
import { recordTextTool, startHttpSink } from '../lib/http-sink.mjs';
import { readNdjson } from '../lib/ndjson.mjs';
import { BULL_TIMINGS } from '../lib/queue-topology.mjs';
import { connections, node } from '../lib/workflows.mjs';
import { deployScenarioWorkflow, orchestratorNode, webhookNode } from './common.mjs';

const MODEL = 'fake/queue-crash';
const PARTIAL = 'Partial answer that never ends because the worker dies right here';
/** How long the execution may stay `running` after the kill. */
const LEAVE_RUNNING_WITHIN_MS = 150_000;

/**
 * @param {import('./scope.mjs').QueueScope} scope
 * @returns {Promise<void>}
 */
export async function queueWorkerKilledMidStream(scope) {
	const topology = scope.topology;
	const sink = await startHttpSink();
	scope.cleanups.push(() => sink.close());
	const token = `crash-${Date.now().toString(36)}`;
	let recordCallsIssued = 0;
	/** @type {() => void} */
	let midStream = () => {};
	const reachedMidStream = new Promise((resolve) => {
		midStream = () => resolve(undefined);
	});
	const fake = await scope.startFake((request, fakeModule) => {
		checkRequest(request, MODEL);
		const results = toolMessages(request.body);
		if (results.length === 0) {
			recordCallsIssued += 1;
			return matchStreaming(
				request,
				fakeModule.toolCallReply(
					[
						{
							id: `call_record_${recordCallsIssued}`,
							name: 'Record_Text',
							arguments: { text: token },
						},
					],
					{ model: MODEL, text: 'Recording now. ' },
				),
			);
		}
		midStream();
		// role delta + 3 content deltas, then the stream stays open with nothing more.
		return fakeModule.textReply(`${PARTIAL}. And the rest.`, {
			model: MODEL,
			deltaSize: 24,
			reply: { stallAfterChunks: 4 },
		});
	});
	const workflowId = await deployScenarioWorkflow(scope, fake, (credential) => ({
		// Stall timeout above the test's horizon: the orchestrator must not give up on its own first.
		nodes: [
			webhookNode('tb-queue-crash', 'streaming'),
			orchestratorNode(credential, MODEL, { stallTimeout: 600 }),
			recordTextTool(node, sink.url),
		],
		connections: connections([
			['Webhook', 'Agent Orchestrator'],
			['Record Text', 'Agent Orchestrator', 'ai_tool'],
		]),
	}));

	const started = Date.now();
	const abort = new AbortController();
	const response = await topology.mainProcess.webhook('tb-queue-crash', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ message: `Record ${token}, then explain.` }),
		signal: abort.signal,
	});
	if (!response.ok) throw new Error(`POST /webhook/tb-queue-crash: HTTP ${response.status}`);
	let partialSeenAt = 0;
	/** @type {() => void} */
	let partialSeen = () => {};
	const clientSawPartial = new Promise((resolve) => {
		partialSeen = () => resolve(undefined);
	});
	let streamedText = '';
	const reading = readNdjson(
		response,
		(chunk) => {
			if (chunk.type === 'item' && typeof chunk.content === 'string') streamedText += chunk.content;
			if (!partialSeenAt && streamedText.includes(PARTIAL.slice(0, 30))) {
				partialSeenAt = Date.now();
				partialSeen();
			}
		},
		{ signal: abort.signal },
	);
	const bound = (/** @type {Promise<unknown>} */ promise, /** @type {string} */ what) =>
		Promise.race([
			promise,
			new Promise((_, reject) =>
				setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 60_000),
			),
		]);
	await bound(reachedMidStream, 'the model request after the tool call');
	await bound(clientSawPartial, 'the partial answer at the HTTP client');
	const [execution] = await topology.executionsOf(workflowId);
	const [job] = await topology.waitForJobs(execution.id, 1);
	const victim = topology.worker(job.worker);
	const killedAt = Date.now();
	await victim.kill();

	// The execution must leave `running`.
	/** @type {Array<{ status: string, at: number }>} */
	const timeline = [];
	let terminal;
	for (;;) {
		const [row] = await topology.sql(
			'SELECT status, finished FROM execution_entity WHERE id = $1',
			[Number(execution.id)],
		);
		if (timeline.at(-1)?.status !== row.status)
			timeline.push({ status: row.status, at: Date.now() - killedAt });
		if (!['running', 'new'].includes(row.status)) {
			terminal = row.status;
			break;
		}
		if (Date.now() - killedAt > LEAVE_RUNNING_WITHIN_MS) break;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	// The HTTP client: give main a few seconds after the status change to end the response.
	const clientOutcome = await Promise.race([
		reading,
		new Promise((resolve) => setTimeout(() => resolve(undefined), 10_000)),
	]);
	abort.abort();
	const clientEndedMs = clientOutcome ? Date.now() - killedAt : undefined;
	const stored = terminal
		? await topology.execution(execution.id).catch(() => undefined)
		: undefined;
	const storedError = stored?.data?.resultData?.error;
	const jobs = topology.jobsOf(execution.id);
	const mainLines = topology
		.mainLog()
		.split('\n')
		.filter(
			(line) =>
				line.includes(`execution ${execution.id}`) || line.includes(`Execution ${execution.id}`),
		)
		.map((line) => line.trim().slice(0, 160));
	fake.assertNoFailures();

	const timelineText = timeline
		.map((entry) => `${entry.status} @${(entry.at / 1000).toFixed(1)} s`)
		.join(' → ');
	scope.note(
		`execution ${execution.id} on ${job.worker} (job ${job.job}); client read ${JSON.stringify(streamedText.slice(0, 60))}… ${((partialSeenAt - started) / 1000).toFixed(1)} s after the request; ${job.worker} SIGKILLed then`,
	);
	scope.note(
		`status after the kill: ${timelineText} (Bull lock ${BULL_TIMINGS.lockDurationMs / 1000} s, stall check every ${BULL_TIMINGS.stalledIntervalMs / 1000} s; n8n defaults 60 s / 30 s)`,
	);
	scope.note(
		`stored error: ${storedError ? JSON.stringify([storedError.name, storedError.message].filter(Boolean).join(': ')).slice(0, 260) : '(none)'}`,
	);
	scope.note(`main log: ${mainLines.slice(0, 4).join(' | ') || '(nothing about this execution)'}`);
	scope.note(
		`HTTP client: ${clientOutcome ? `response ${/** @type {any} */ (clientOutcome).ended === 'end' ? 'ended' : `broke off (${/** @type {any} */ (clientOutcome).error})`} ${((clientEndedMs ?? 0) / 1000).toFixed(1)} s after the kill, last chunk types ${JSON.stringify(/** @type {any} */ (clientOutcome).chunks.slice(-2).map((chunk) => chunk.type))}` : 'response still open 10 s after the status change (aborted by the test)'}`,
	);
	scope.note(
		`re-run: worker jobs for the execution ${JSON.stringify(jobs)}; model requests ${fake.requests.length}; Record_Text calls asked by the model ${recordCallsIssued}, sink records ${sink.countOf(token)}`,
	);

	if (!terminal)
		throw new Error(
			`execution ${execution.id} still '${timeline.at(-1)?.status}' ${LEAVE_RUNNING_WITHIN_MS / 1000} s after its worker was killed (${timelineText})`,
		);
	if (sink.countOf(token) > recordCallsIssued)
		throw new Error(
			`Record Text reached the sink ${sink.countOf(token)} times, the model asked ${recordCallsIssued} times`,
		);
	if (sink.countOf(token) !== 1)
		throw new Error(
			`Record Text reached the sink ${sink.countOf(token)} times, expected once (before the kill)`,
		);
	if (jobs.length !== 1)
		throw new Error(`the execution was taken again after the kill: ${JSON.stringify(jobs)}`);
	if (!clientOutcome)
		throw new Error(
			`the HTTP client was left hanging: no end of the streamed response within 10 s of the execution's status '${terminal}'`,
		);
}
