// @ts-check
/**
 * The queue-mode scenario table (issue 16). Each row is one line in the report.
 *
 * Row fields:
 * - `id`, `title`: as in ../scenarios/index.mjs
 * - `needsTopology`: runs on the shared main + 2 workers (Postgres, Redis); rows without it
 *   start their own n8n
 * - `pending`: set only for what n8n 2.41 cannot do, with the reason and the n8n source line;
 *   the row still runs and is reported PENDING while it fails
 * - `run(scope)`: throws on failure
 */
import { queueFullWebhook, queueLoad } from './full-webhook.mjs';

/**
 * @typedef {object} QueueScenario
 * @property {string} id
 * @property {string} title
 * @property {boolean} needsTopology
 * @property {string} [pending]
 * @property {(scope: import('./scope.mjs').QueueScope) => Promise<void>} run
 */

/** @type {QueueScenario[]} */
export const scenarios = [
	{
		id: 'queue-full-webhook',
		title: 'production webhook → worker: full mode (engine), tools are node runs in the Postgres execution log, answer in the webhook response',
		needsTopology: true,
		run: queueFullWebhook,
	},
	{
		id: 'queue-load-30',
		title: '30 concurrent webhook executions across both workers: all succeed, each answer carries its own input, every tool call ran exactly once (HTTP sink)',
		needsTopology: true,
		run: queueLoad,
	},
];
