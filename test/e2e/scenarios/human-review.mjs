// @ts-check
/**
 * Issue 8: human review of tool calls in a running n8n (`n8n start`). Webhook → an agent
 * (our orchestrator in full mode with the engine driver, or n8n's own AI Agent v3.1 as the
 * baseline) ← Email Send's send-and-wait HITL tool variant (`n8n-nodes-base.emailSendHitlTool`,
 * mails to a loopback SMTP sink) ← Crypto (`$fromAI`). Approve: the approve link from the
 * captured mail, requested against n8n → Crypto runs → the model reads the hash. Decline:
 * the model reads the decline, Crypto never runs. Each execution waits while the person
 * decides; the agent's state survives in n8n's persisted engine metadata.
 *
 * The link is requested with a browser user agent: n8n's `sendAndWaitWebhook` answers
 * requests whose user agent `isbot()` flags (link previews, mail scanners) with an empty
 * HTTP 200 and does NOT resume — and isbot 3.6 flags Node's own fetch (`node`, `undici`).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { matchStreaming, toolMessages } from '../lib/fake-model.mjs';
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
import { EXPECTED, hashTextTool, TOOL_INPUT } from '../lib/tool-fixtures.mjs';
import { connections, node, openRouterCredential, workflow } from '../lib/workflows.mjs';

const WEBHOOK_PATH = 'toolbridge-e2e-review';
const MODEL = 'fake/review-model';

/**
 * The scripted model: asserts the gated tool's schema (`toolParameters.text: string`), calls
 * it, then answers from the tool message (a digest, or the decline).
 * @param {{ toolMessages: string[] }} seen
 * @returns {(request: any, fake: any) => any}
 */
function reviewModel(seen) {
	return (request, fake) => {
		const body = checkGatedRequest(request, MODEL, 'Hash_Text');
		const inner = body.tools.find((/** @type {any} */ tool) => tool.function.name === 'Hash_Text')
			.function.parameters.properties.toolParameters;
		if (inner?.properties?.text?.type !== 'string')
			throw new Error(`toolParameters.text is not a typed string: ${JSON.stringify(inner)}`);
		const results = toolMessages(body);
		if (results.length === 0)
			return gatedCallReply(request, fake, {
				name: 'Hash_Text',
				toolParameters: { text: TOOL_INPUT.text },
				model: MODEL,
			});
		seen.toolMessages.push(results[0].content);
		const digest = /[0-9a-f]{64}/.exec(results[0].content)?.[0];
		return matchStreaming(
			request,
			fake.textReply(digest ? `Digest: ${digest}.` : 'The reviewer declined the hash.', {
				model: MODEL,
			}),
		);
	};
}

/**
 * @typedef {object} HumanReviewOptions
 * @property {'orchestrator' | 'n8n'} agent
 * @property {Array<'approve' | 'decline'>} decisions
 * @property {Record<string, unknown>} [orchestratorOptions] the orchestrator's `options`
 *   (default: Tool Execution = engine, intermediate steps, debug log)
 * @property {Partial<Record<'agent' | 'lmChatOpenRouter' | 'webhook' | 'emailSend' | 'crypto', number>>} [nodeVersions]
 *   node typeVersions (default: n8n 2.41's)
 */

/** The orchestrator's options unless a row asks for others. */
const DEFAULT_ORCHESTRATOR_OPTIONS = Object.freeze({
	toolExecution: 'engine',
	returnIntermediateSteps: true,
	debugLog: true,
});

/**
 * The agent node(s) of the workflow and the name of the node whose output is the answer.
 * @param {HumanReviewOptions} options
 * @param {{ id: string, name: string }} modelCredential
 * @returns {{ agentName: string, nodes: import('../lib/workflows.mjs').WorkflowNode[], edges: Array<[string, string, string?]> }}
 */
function agentNodes(options, modelCredential) {
	const versions = options.nodeVersions ?? {};
	if (options.agent === 'n8n') {
		return {
			agentName: 'AI Agent',
			nodes: [
				node('AI Agent', '@n8n/n8n-nodes-langchain.agent', versions.agent ?? 3.1, {
					promptType: 'define',
					text: 'Hash the text.',
					options: { returnIntermediateSteps: true },
				}),
				node(
					'OpenRouter Model',
					'@n8n/n8n-nodes-langchain.lmChatOpenRouter',
					versions.lmChatOpenRouter ?? 1,
					{ model: MODEL, options: {} },
					{ openRouterApi: modelCredential },
				),
			],
			edges: [['OpenRouter Model', 'AI Agent', 'ai_languageModel']],
		};
	}
	return {
		agentName: 'Agent Orchestrator',
		nodes: [
			node(
				'Agent Orchestrator',
				'n8n-nodes-toolbridge.agentOrchestrator',
				1,
				{
					authentication: 'openRouterApi',
					mode: 'full',
					model: MODEL,
					prompt: 'Hash the text.',
					options: { ...(options.orchestratorOptions ?? DEFAULT_ORCHESTRATOR_OPTIONS) },
				},
				{ openRouterApi: modelCredential },
			),
		],
		edges: [],
	};
}

/**
 * A human-review row: one `n8n start`, then one webhook run per decision.
 * @param {HumanReviewOptions} options
 * @returns {(scope: import('../lib/context.mjs').ScenarioScope) => Promise<void>}
 */
export function humanReview(options) {
	return (scope) => runHumanReview(scope, options);
}

/**
 * @param {import('../lib/context.mjs').ScenarioScope} scope
 * @param {HumanReviewOptions} options
 * @returns {Promise<void>}
 */
async function runHumanReview(scope, options) {
	const { decisions } = options;
	const versions = options.nodeVersions ?? {};
	const seen = { toolMessages: /** @type {string[]} */ ([]) };
	const fake = await scope.startFake(reviewModel(seen));
	const smtp = await startSmtpSink();
	scope.cleanups.push(() => smtp.close());
	const { n8n } = await scope.newN8n({ logLevel: process.env.TOOLBRIDGE_E2E_LOG_LEVEL ?? 'info' });

	const modelCredential = openRouterCredential('cred-review-or', fake.baseUrl);
	const agentPart = agentNodes(options, { id: modelCredential.id, name: modelCredential.name });
	const { agentName } = agentPart;
	const smtpCredential = {
		id: 'cred-review-smtp',
		name: 'E2E SMTP sink',
		type: 'smtp',
		data: smtpSinkCredentialData(smtp.port),
	};
	await n8n.importCredentials([modelCredential, smtpCredential]);
	const workflowId = await n8n.importWorkflow(
		workflow({
			id: `wf-${scope.id}`.slice(0, 21),
			name: `E2E ${scope.id}`,
			nodes: [
				{
					...node('Webhook', 'n8n-nodes-base.webhook', versions.webhook ?? 2, {
						httpMethod: 'POST',
						path: WEBHOOK_PATH,
						responseMode: 'onReceived',
						options: {},
					}),
					webhookId: '5f0c1d2e-7a8b-4c9d-8e0f-0123456789ab',
				},
				...agentPart.nodes,
				emailReviewNode(
					{ id: smtpCredential.id, name: smtpCredential.name },
					'hashing',
					versions.emailSend,
				),
				{ ...hashTextTool(), typeVersion: versions.crypto ?? 2 },
			],
			connections: connections([
				['Webhook', agentName],
				...agentPart.edges,
				['Review', agentName, 'ai_tool'],
				['Hash Text', 'Review', 'ai_tool'],
			]),
		}),
	);
	await n8n.start();
	const stored = await n8n.rest('GET', `/rest/workflows/${workflowId}`);
	await n8n.rest('POST', `/rest/workflows/${workflowId}/activate`, { versionId: stored.versionId });

	const flatted = createRequire(
		join(scope.run.install.n8nDir, 'node_modules', 'n8n', 'package.json'),
	)('flatted');
	/** @param {string} executionId */
	const finished = async (executionId) => {
		const deadline = Date.now() + 90_000;
		for (;;) {
			const execution = await n8n.rest('GET', `/rest/executions/${executionId}`);
			if (execution.finished || ['success', 'error', 'crashed'].includes(execution.status)) {
				return {
					status: execution.status,
					data: typeof execution.data === 'string' ? flatted.parse(execution.data) : execution.data,
				};
			}
			if (Date.now() > deadline)
				throw new Error(`execution ${executionId} did not finish (status ${execution.status})`);
			await sleep(300);
		}
	};
	/** @param {string} executionId */
	const statusOf = async (executionId) =>
		(await n8n.rest('GET', `/rest/executions/${executionId}`)).status;

	/** @type {string[]} */
	const notes = [];
	for (const decision of decisions) {
		const mailsBefore = smtp.mails.length;
		// n8n 2.41 publishes an activation asynchronously: the webhook may need a moment.
		let response;
		for (let attempt = 0; ; attempt++) {
			response = await n8n.webhook(WEBHOOK_PATH, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ run: decision }),
			});
			if (response.status !== 404 || attempt >= 60) break;
			await sleep(500);
		}
		if (!response.ok) throw new Error(`webhook: HTTP ${response.status} ${await response.text()}`);
		const mail = await smtp.waitForMail(mailsBefore + 1);
		if (!mail.text.includes('Approve hashing of:'))
			throw new Error(`the review mail lacks the message: ${mail.text.slice(0, 800)}`);
		const link = decisionLink(reviewLinks(mail.text), decision);
		const executionId = /webhook-waiting\/([^/]+)\//.exec(link)?.[1];
		if (!executionId) throw new Error(`no execution id in the link ${link}`);
		// The execution waits while the person decides; the model was asked once so far.
		await sleep(500);
		const waiting = await statusOf(executionId);
		if (waiting !== 'waiting')
			throw new Error(
				`execution ${executionId} is '${waiting}' before the decision, expected 'waiting'`,
			);
		const requestsWhileWaiting = fake.requests.length;
		const click = await openDecisionLink(n8n, link, decision);
		let outcome;
		try {
			outcome = await finished(executionId);
		} catch (error) {
			throw new Error(
				`${/** @type {Error} */ (error).message}; the ${decision} link ${link.replace(/signature=[^&]+/, 'signature=…')} answered HTTP ${click.status}: ${click.title}`,
			);
		}
		const { status, data } = outcome;
		if (status !== 'success')
			throw new Error(
				`execution ${executionId} ended '${status}': ${JSON.stringify(data?.resultData?.error ?? {}).slice(0, 800)}`,
			);
		const runData = data.resultData.runData;
		const output = runData[agentName]?.at(-1)?.data?.main?.[0]?.[0]?.json;
		const toolMessage = seen.toolMessages.at(-1) ?? '';
		const hashRuns = runData['Hash Text']?.length ?? 0;
		if (decision === 'approve') {
			if (!toolMessage.includes(EXPECTED.sha256))
				throw new Error(
					`after approval the model read ${JSON.stringify(toolMessage)}, expected the hash ${EXPECTED.sha256}`,
				);
			if (!String(output?.output).includes(EXPECTED.sha256))
				throw new Error(`the answer lacks the hash: ${JSON.stringify(output).slice(0, 600)}`);
			if (hashRuns !== 1)
				throw new Error(`'Hash Text' ran ${hashRuns} times after approval, expected 1`);
		} else {
			if (!DECLINE_PATTERN.test(toolMessage) || toolMessage.includes(EXPECTED.sha256))
				throw new Error(`after the decline the model read ${JSON.stringify(toolMessage)}`);
			if (hashRuns !== 0)
				throw new Error(`'Hash Text' ran ${hashRuns} times although the person declined`);
		}
		notes.push(
			`${decision}: execution ${executionId} waited (model requests while waiting: ${requestsWhileWaiting}), then ${status}; Review runs ${runData.Review?.length ?? 0}, Hash Text runs ${hashRuns}; '${agentName}' runs ${runData[agentName]?.length ?? 0}; page '${click.title}'; model read: ${JSON.stringify(toolMessage.slice(0, 120))}`,
		);
	}
	fake.assertNoFailures();
	for (const note of notes) scope.note(note);
}
