// @ts-check
/**
 * Human review of a tool call while n8n processes come and go.
 *
 * Webhook → our orchestrator (full, engine) ← Email Send's send-and-wait HITL tool (mails a
 * loopback SMTP sink) ← Record Text (HTTP Request to the sink: every real run leaves a record).
 * The execution waits for the person; its loop state lives in the execution n8n stored.
 *
 * - queue mode: the worker that ran the execution up to the wait is SIGKILLed during the wait;
 *   the approve/decline link goes to main, which enqueues the resume, and the other worker
 *   runs it. Approve: Record Text runs exactly once, the model reads its receipt. Decline: it
 *   never runs, the model reads the decline. Either way the model's request after the resume
 *   carries the earlier turn (user, assistant tool call, tool result).
 * - regular mode (SQLite): `n8n start` itself is SIGKILLed during the wait and started again on
 *   the same folder; approve resumes and the loop finishes with its earlier steps intact.
 */
import { matchStreaming, toolMessages } from '../lib/fake-model.mjs';
import { recordTextTool, sinkDigest, startHttpSink } from '../lib/http-sink.mjs';
import { createCredential, deployWorkflow, newProcess } from '../lib/queue-topology.mjs';
import {
	checkGatedRequest,
	decisionLink,
	DECLINE_PATTERN,
	emailReviewNode,
	gatedCallReply,
	openDecisionLink,
	reviewLinks,
	smtpSinkCredentialData,
} from '../lib/review-fixtures.mjs';
import { startSmtpSink } from '../lib/smtp-sink.mjs';
import { connections, node, openRouterCredential, workflow } from '../lib/workflows.mjs';
import {
	messagesOf,
	orchestratorNode,
	rolesOf,
	textOf,
	toolCallsOf,
	webhookNode,
	workflowIdFor,
} from './common.mjs';

const MODEL = 'fake/queue-review';

/**
 * What the scripted review model saw.
 * @typedef {{ afterResume: any[], toolResults: string[] }} ReviewSeen
 */

/**
 * The scripted model: calls the gated Record_Text with the text from the prompt; after the
 * review, answers from the tool message (the receipt, or the decline).
 * @param {ReviewSeen} seen
 * @returns {(request: any, fake: any) => any}
 */
function reviewModel(seen) {
	return (request, fake) => {
		const body = checkGatedRequest(request, MODEL, 'Record_Text');
		const user = messagesOf(body).find((/** @type {any} */ message) => message.role === 'user');
		const text = /Record (\S+) after review\./.exec(textOf(user))?.[1];
		if (!text) throw new Error(`no text in the prompt: ${textOf(user)}`);
		const results = toolMessages(body);
		if (results.length === 0)
			return gatedCallReply(request, fake, {
				name: 'Record_Text',
				toolParameters: { text },
				model: MODEL,
			});
		seen.afterResume.push(body);
		seen.toolResults.push(results[0].content);
		const receipt = /[0-9a-f]{64}/.exec(results[0].content)?.[0];
		return matchStreaming(
			request,
			fake.textReply(
				receipt
					? `Recorded ${text}, receipt ${receipt}.`
					: `The reviewer declined recording ${text}.`,
				{ model: MODEL },
			),
		);
	};
}

/**
 * Check the first request after the resume: the earlier turn as real messages.
 * @param {any} body
 * @param {string} text
 * @returns {void}
 * @throws {Error} naming what is missing
 */
function assertEarlierTurn(body, text) {
	const roles = rolesOf(body);
	if (roles !== 'user,assistant,tool')
		throw new Error(
			`the request after the resume has messages ${roles}, expected user,assistant,tool`,
		);
	const messages = messagesOf(body).filter(
		(/** @type {any} */ message) => message.role !== 'system',
	);
	const [call, ...others] = toolCallsOf(messages[1]);
	if (
		!call ||
		others.length > 0 ||
		call.id !== 'call_review' ||
		call.name !== 'Record_Text' ||
		call.arguments?.toolParameters?.text !== text
	) {
		throw new Error(
			`the assistant tool call before the wait is not carried over: ${JSON.stringify(messages[1]).slice(0, 400)}`,
		);
	}
	if (messages[2].tool_call_id !== 'call_review')
		throw new Error(`the tool result answers ${messages[2].tool_call_id}, not call_review`);
}

/**
 * The review workflow.
 * @param {{ id: string, path: string, credential: { id: string, name: string }, smtpCredential: { id: string, name: string }, sinkUrl: string }} options
 * @returns {Record<string, unknown>}
 */
function reviewWorkflow(options) {
	return workflow({
		id: options.id,
		name: `E2E ${options.id}`,
		nodes: [
			webhookNode(options.path, 'onReceived'),
			orchestratorNode(options.credential, MODEL, { debugLog: true }),
			emailReviewNode(options.smtpCredential, 'recording'),
			recordTextTool(node, options.sinkUrl),
		],
		connections: connections([
			['Webhook', 'Agent Orchestrator'],
			['Review', 'Agent Orchestrator', 'ai_tool'],
			['Record Text', 'Review', 'ai_tool'],
		]),
	});
}

/**
 * Fake model, SMTP sink, HTTP sink and the credentials on `main`; the review workflow deployed.
 * @param {import('./scope.mjs').QueueScope} scope
 * @param {import('../lib/n8n-instance.mjs').N8nInstance} main
 * @param {string} path
 */
async function setUpReview(scope, main, path) {
	/** @type {ReviewSeen} */
	const seen = { afterResume: [], toolResults: [] };
	const fake = await scope.startFake(reviewModel(seen));
	const smtp = await startSmtpSink();
	scope.cleanups.push(() => smtp.close());
	const sink = await startHttpSink();
	scope.cleanups.push(() => sink.close());
	const { name, type, data } = openRouterCredential(scope.id, fake.baseUrl);
	const credential = await createCredential(main, { name, type, data });
	const smtpCredential = await createCredential(main, {
		name: `E2E SMTP ${scope.id}`,
		type: 'smtp',
		data: smtpSinkCredentialData(smtp.port),
	});
	const workflowId = await deployWorkflow(
		main,
		reviewWorkflow({
			id: workflowIdFor(scope),
			path,
			credential,
			smtpCredential,
			sinkUrl: sink.url,
		}),
	);
	return { seen, fake, smtp, sink, workflowId };
}

/**
 * Start an execution through the webhook and wait for its review mail.
 * @param {import('../lib/n8n-instance.mjs').N8nInstance} main
 * @param {string} path
 * @param {string} text
 * @param {Awaited<ReturnType<typeof startSmtpSink>>} smtp
 * @returns {Promise<{ executionId: string, links: string[] }>}
 */
async function startReview(main, path, text, smtp) {
	const mailsBefore = smtp.mails.length;
	const response = await main.webhook(path, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ message: `Record ${text} after review.` }),
	});
	if (!response.ok) throw new Error(`webhook: HTTP ${response.status} ${await response.text()}`);
	await response.arrayBuffer();
	const mail = await smtp.waitForMail(mailsBefore + 1, 90_000);
	if (!mail.text.includes(`Approve recording of: ${text}`))
		throw new Error(`the review mail lacks the text: ${mail.text.slice(0, 600)}`);
	const links = reviewLinks(mail.text);
	const executionId = /webhook-waiting\/([^/]+)\//.exec(
		links.find((link) => link.includes('webhook-waiting')) ?? '',
	)?.[1];
	if (!executionId)
		throw new Error(`no execution id in the mail's links: ${JSON.stringify(links)}`);
	return { executionId, links };
}

/**
 * Open the approve or decline link against `main`, as a person's browser would.
 * @param {import('../lib/n8n-instance.mjs').N8nInstance} main
 * @param {string[]} links
 * @param {'approve' | 'decline'} decision
 * @returns {Promise<string>} the page title
 */
async function decide(main, links, decision) {
	return (await openDecisionLink(main, decisionLink(links, decision), decision)).title;
}

/**
 * Check what happened after the decision.
 * @param {{ decision: 'approve' | 'decline', text: string, seen: ReviewSeen, sink: Awaited<ReturnType<typeof startHttpSink>>, runData: any, requests: number }} facts
 * @returns {string} a summary
 * @throws {Error} naming what is wrong
 */
function assertOutcome({ decision, text, seen, sink, runData, requests }) {
	if (seen.afterResume.length !== 1)
		throw new Error(
			`the model was asked ${seen.afterResume.length} times after the resume, expected once`,
		);
	assertEarlierTurn(seen.afterResume[0], text);
	const toolResult = seen.toolResults[0];
	const recordRuns = runData['Record Text']?.length ?? 0;
	if (decision === 'approve') {
		if (!toolResult.includes(sinkDigest(text)))
			throw new Error(
				`after approval the model read ${JSON.stringify(toolResult).slice(0, 300)}, expected the receipt ${sinkDigest(text)}`,
			);
		if (sink.countOf(text) !== 1)
			throw new Error(
				`Record Text reached the sink ${sink.countOf(text)} times after approval, expected exactly 1`,
			);
		if (recordRuns !== 1)
			throw new Error(`Record Text has ${recordRuns} runs in the execution log, expected 1`);
	} else {
		if (!DECLINE_PATTERN.test(toolResult) || toolResult.includes(sinkDigest(text)))
			throw new Error(
				`after the decline the model read ${JSON.stringify(toolResult).slice(0, 300)}`,
			);
		if (sink.records.length !== 0)
			throw new Error(
				`Record Text reached the sink ${sink.records.length} times although the person declined`,
			);
		if (recordRuns !== 0)
			throw new Error(`Record Text ran ${recordRuns} times although the person declined`);
	}
	if (requests !== 2)
		throw new Error(
			`the model got ${requests} requests, expected 2 (before the wait, after the resume)`,
		);
	return `model read after the resume: ${JSON.stringify(toolResult.slice(0, 100))}; sink hits ${sink.countOf(text)}; Record Text runs ${recordRuns}`;
}

/**
 * Queue mode: the worker that started the execution is SIGKILLed during the wait.
 * @param {'approve' | 'decline'} decision
 * @param {{ restartKilledWorker?: boolean, freshEventLog?: boolean, restartMain?: boolean }} [options]
 *   `restartKilledWorker`: start the killed worker again before the decision, as a process
 *   supervisor would (it replays its event log at start-up); `freshEventLog`: delete that
 *   worker's event log first; `restartMain`: also SIGKILL main during the wait and start it again
 * @returns {(scope: import('./scope.mjs').QueueScope) => Promise<void>}
 */
export function queueHumanReview(decision, options = {}) {
	return async (scope) => {
		const topology = scope.topology;
		const main = topology.mainProcess;
		const path = `tb-${scope.id}`;
		const { seen, fake, smtp, sink } = await setUpReview(scope, main, path);
		const text = `review-${decision}-${Date.now().toString(36)}`;
		const { executionId, links } = await startReview(main, path, text, smtp);
		await topology.waitForExecution(executionId, { statuses: ['waiting'], timeoutMs: 30_000 });
		const [first, ...more] = await topology.waitForJobs(executionId, 1);
		if (more.length > 0)
			throw new Error(`execution ${executionId} took ${more.length + 1} jobs before the wait`);
		if (sink.records.length !== 0) throw new Error('Record Text ran before the review');
		const killed = topology.worker(first.worker);
		await killed.kill();
		const survivor = topology.workers.find((worker) => worker.running);
		if (!survivor) throw new Error('no worker left running');
		/** @type {string[]} */
		const restarts = [];
		if (options.restartMain) {
			await main.kill();
			await main.start();
			restarts.push('main SIGKILLed and started again');
		}
		if (options.restartKilledWorker) {
			const cleared = options.freshEventLog ? killed.clearEventLog() : [];
			await killed.start();
			restarts.push(
				`${killed.name} started again${options.freshEventLog ? ` without its event log (${cleared.join(', ')})` : ''}`,
			);
		}
		const title = await decide(main, links, decision);
		const { status, data } = await topology.waitForExecution(executionId, { timeoutMs: 90_000 });
		if (status !== 'success')
			throw new Error(
				`execution ${executionId} ended '${status}': ${JSON.stringify(data?.resultData?.error ?? {}).slice(0, 600)}`,
			);
		fake.assertNoFailures();
		const jobs = topology.jobsOf(executionId);
		const resumed = jobs.slice(1);
		const expectedWorker = options.restartKilledWorker ? resumed[0]?.worker : survivor.name;
		if (resumed.length !== 1 || resumed[0].worker !== expectedWorker || !resumed[0].finished) {
			throw new Error(
				`the resume should be one finished job on ${options.restartKilledWorker ? 'a worker' : survivor.name}; worker logs show ${JSON.stringify(jobs)}`,
			);
		}
		const summary = assertOutcome({
			decision,
			text,
			seen,
			sink,
			runData: data.resultData.runData,
			requests: fake.requests.length,
		});
		scope.note(
			`execution ${executionId}: started on ${first.worker} (job ${first.job}), waited; ${first.worker} SIGKILLed${restarts.length ? `; ${restarts.join('; ')}` : ''}; ${decision} ('${title}') → resumed on ${resumed[0].worker} (job ${resumed[0].job}), ${status}`,
		);
		scope.note(
			`the request after the resume carried user, assistant(call_review), tool; ${summary}`,
		);
	};
}

/**
 * Regular mode (SQLite): `n8n start` SIGKILLed during the wait, started again, approve.
 * @param {{ freshEventLog?: boolean }} [options] delete n8n's event log before the restart
 * @returns {(scope: import('./scope.mjs').QueueScope) => Promise<void>}
 */
export function regularRestartDuringReview(options = {}) {
	return (scope) => runRegularRestart(scope, options);
}

/**
 * @param {import('./scope.mjs').QueueScope} scope
 * @param {{ freshEventLog?: boolean }} options
 * @returns {Promise<void>}
 */
async function runRegularRestart(scope, options) {
	const main = await newProcess(scope.run, { name: 'regular', role: 'main', sqlite: true });
	scope.cleanups.push(async (keep) => {
		const kept = await main.dispose(keep);
		if (kept) scope.note(`n8n folder kept: ${kept}`);
	});
	await main.start();
	const path = 'tb-regular-review';
	const { seen, fake, smtp, sink, workflowId } = await setUpReview(scope, main, path);
	const text = `restart-${Date.now().toString(36)}`;
	const { executionId, links } = await startReview(main, path, text, smtp);
	const statusOf = async () => (await main.rest('GET', `/rest/executions/${executionId}`)).status;
	const deadline = Date.now() + 30_000;
	while ((await statusOf()) !== 'waiting') {
		if (Date.now() > deadline)
			throw new Error(`execution ${executionId} is '${await statusOf()}', never 'waiting'`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	const killedAt = Date.now();
	await main.kill();
	const cleared = options.freshEventLog ? main.clearEventLog() : [];
	await main.start();
	const restartSeconds = ((Date.now() - killedAt) / 1000).toFixed(1);
	const afterRestart = await statusOf();
	if (afterRestart !== 'waiting')
		throw new Error(
			`after the restart execution ${executionId} is '${afterRestart}', expected still 'waiting'`,
		);
	// The approve link's webhook-waiting route does not need the workflow's webhooks; wait for them anyway.
	await main.waitForWebhook(path);
	const title = await decide(main, links, 'approve');
	const finishDeadline = Date.now() + 90_000;
	/** @type {any} */
	let execution;
	for (;;) {
		execution = await main.rest('GET', `/rest/executions/${executionId}`);
		if (['success', 'error', 'crashed', 'canceled'].includes(execution.status)) break;
		if (Date.now() > finishDeadline)
			throw new Error(
				`execution ${executionId} did not finish after the approval (status ${execution.status})`,
			);
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
	const { createRequire } = await import('node:module');
	const { join } = await import('node:path');
	const flatted = createRequire(
		join(scope.run.install.n8nDir, 'node_modules', 'n8n', 'package.json'),
	)('flatted');
	const data = typeof execution.data === 'string' ? flatted.parse(execution.data) : execution.data;
	if (execution.status !== 'success')
		throw new Error(
			`execution ${executionId} ended '${execution.status}': ${JSON.stringify(data?.resultData?.error ?? {}).slice(0, 600)}`,
		);
	fake.assertNoFailures();
	const runData = data.resultData.runData;
	const summary = assertOutcome({
		decision: 'approve',
		text,
		seen,
		sink,
		runData,
		requests: fake.requests.length,
	});
	// The loop's earlier steps survive the crash: the answer's steps hold the reviewed call.
	const output = runData['Agent Orchestrator']?.at(-1)?.data?.main?.[0]?.[0]?.json;
	const steps = JSON.stringify(output?.steps ?? null);
	if (!String(output?.output).includes(sinkDigest(text)))
		throw new Error(`the final answer lacks the receipt: ${JSON.stringify(output).slice(0, 500)}`);
	if (!steps.includes('call_review') || !steps.includes(text))
		throw new Error(`the answer's steps lost the reviewed call: ${steps.slice(0, 600)}`);
	const executions = await main.rest(
		'GET',
		`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
	);
	const count = Array.isArray(executions?.results) ? executions.results.length : undefined;
	scope.note(
		`execution ${executionId} waiting; n8n start SIGKILLed and back in ${restartSeconds} s${options.freshEventLog ? ` (event log deleted before the start: ${cleared.join(', ')})` : ''}, execution still 'waiting'; approve ('${title}') → success; executions of the workflow: ${count ?? '?'}`,
	);
	scope.note(
		`the request after the restart carried user, assistant(call_review), tool; answer steps keep call_review; ${summary}`,
	);
}
