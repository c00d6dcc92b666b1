// @ts-check
/**
 * The queue-mode scenario table (issue 16). Each row is one line in the report.
 *
 * Row fields:
 * - `id`, `title`: as in ../scenarios/index.mjs
 * - `needsTopology`: runs on the shared main + 2 workers (Postgres, Redis); a row without it
 *   starts its own n8n
 * - `pending`: set only for what n8n 2.41 cannot do, with the reason and the n8n source lines;
 *   the row still runs and is reported PENDING while it fails (PASS with a hint once it passes)
 * - `run(scope)`: throws on failure
 *
 * Rows that stop or kill a worker come last-but-one; the runner restarts stopped workers before
 * the next row.
 */
import { queueFullWebhook, queueLoad } from './full-webhook.mjs';
import { queueHumanReview, regularRestartDuringReview } from './human-review.mjs';
import { queueMemoryAcrossWorkers, queueStreaming } from './memory-streaming.mjs';
import { queueMemoryWindow } from './memory-window.mjs';
import { queueNestedUnderN8nAgent } from './nested.mjs';
import { queueStateSize } from './state-size.mjs';
import { queueWorkerKilledMidStream } from './worker-crash.mjs';

/**
 * @typedef {object} QueueScenario
 * @property {string} id
 * @property {string} title
 * @property {boolean} needsTopology
 * @property {string} [pending]
 * @property {(scope: import('./scope.mjs').QueueScope) => Promise<void>} run
 */

/**
 * Why an agent's human-review wait does not survive the restart of the n8n process that ran it
 * (n8n 2.41.1; paths in the n8n package, packages/cli in n8n's repository).
 */
const RESTART_LOSES_REVIEW_WAIT =
	"n8n 2.41 cannot resume an agent's review wait after the process that ran the agent restarts (SIGKILL or SIGTERM alike; n8n's own AI Agent v3.1 too): " +
	"a waiting execution never gets a workflow end event in that process's event log (src/execution-lifecycle/execution-lifecycle-hooks.ts:175 returns before 'workflow-post-execute'; " +
	'the log writer counts it unfinished, src/eventbus/message-event-bus-writer/message-event-bus-log-writer.ts:304-310), so start-up recovery ' +
	'(src/eventbus/message-event-bus/message-event-bus.ts:114 → :326) amends it; the agent node has n8n.node.started but no run data while its engine request waits, ' +
	'so amend() stores a WorkflowCrashedError (src/executions/execution-recovery.service.ts:215-218; dist/executions/execution-recovery.service.js:154-157) ' +
	"and the approve link answers 409 'has finished with error' (src/webhooks/waiting-webhooks.ts:294)";

/** @type {QueueScenario[]} */
export const scenarios = [
	{
		id: 'queue-full-webhook',
		title:
			'production webhook → worker: full mode (engine), tools are node runs in the Postgres execution log, answer in the webhook response',
		needsTopology: true,
		run: queueFullWebhook,
	},
	{
		id: 'queue-nested-n8n-agent',
		title:
			"production webhook → worker: nested orchestrator under n8n's AI Agent v3.1, run by the engine, plain-text answer back to the parent",
		needsTopology: true,
		run: queueNestedUnderN8nAgent,
	},
	{
		id: 'queue-streaming-worker',
		title:
			'streaming webhook, execution on a worker: text chunks relayed through main reach the client before the final answer exists',
		needsTopology: true,
		run: queueStreaming,
	},
	{
		id: 'queue-load-30',
		title:
			'30 concurrent webhook executions across both workers: all succeed, each answer carries its own input, every tool call ran exactly once (HTTP sink)',
		needsTopology: true,
		run: queueLoad,
	},
	{
		id: 'queue-state-size',
		title:
			'state size: stored execution data after 1, 10, 30 tool iterations grows linearly (no copy of the history per step)',
		needsTopology: true,
		run: queueStateSize,
	},
	{
		id: 'queue-memory-workers',
		title:
			'memory across two webhook turns on different workers: Postgres Chat Memory replays the tool calls; Simple Memory is per-process (empty on the other worker)',
		needsTopology: true,
		run: queueMemoryAcrossWorkers,
	},
	{
		id: 'queue-memory-window',
		title:
			'Postgres Chat Memory with a window of 2 after three parallel tool calls: the next turn carries the tool turn whole (call, three results, answer), a valid message list',
		needsTopology: true,
		run: queueMemoryWindow,
	},
	{
		id: 'queue-review-approve',
		title:
			'human review, approve: the worker that started the execution is SIGKILLed during the wait; the other worker resumes, the gated tool runs exactly once, the model reads the earlier turn',
		needsTopology: true,
		run: queueHumanReview('approve'),
	},
	{
		id: 'queue-review-decline',
		title:
			'human review, decline: the starting worker is SIGKILLed during the wait; the other worker resumes, the gated tool never runs, the model reads the decline',
		needsTopology: true,
		run: queueHumanReview('decline'),
	},
	{
		id: 'queue-review-worker-back',
		title:
			'human review, approve, with the killed worker started again during the wait (as a supervisor would): the execution still resumes',
		needsTopology: true,
		pending: RESTART_LOSES_REVIEW_WAIT,
		run: queueHumanReview('approve', { restartKilledWorker: true }),
	},
	{
		id: 'queue-review-worker-back-fresh-log',
		title:
			'human review, approve, the killed worker started again during the wait without its event log (the workaround): the execution resumes',
		needsTopology: true,
		run: queueHumanReview('approve', { restartKilledWorker: true, freshEventLog: true }),
	},
	{
		id: 'queue-review-main-restart',
		title:
			'human review, approve: the starting worker and main are SIGKILLed during the wait, main started again; the other worker resumes',
		needsTopology: true,
		run: queueHumanReview('approve', { restartMain: true }),
	},
	{
		id: 'queue-worker-killed-mid-stream',
		title:
			'a worker SIGKILLed while the model is mid-stream: the execution leaves running, is not re-run, no tool call repeats, the client is not left hanging',
		needsTopology: true,
		run: queueWorkerKilledMidStream,
	},
	{
		id: 'regular-restart-review',
		title:
			'regular mode (SQLite): n8n start SIGKILLed during a human-review wait and started again; approve resumes, the loop finishes with its earlier steps intact',
		needsTopology: false,
		pending: RESTART_LOSES_REVIEW_WAIT,
		run: regularRestartDuringReview(),
	},
	{
		id: 'regular-restart-review-fresh-log',
		title:
			"regular mode (SQLite): the same restart with n8n's event log deleted before the start (the workaround): approve resumes, earlier steps intact",
		needsTopology: false,
		run: regularRestartDuringReview({ freshEventLog: true }),
	},
];
