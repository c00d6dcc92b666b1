// @ts-check
/**
 * The e2e scenario table. Later issues add rows (validator, nested, memory/webhook,
 * streaming, HITL …); each row is one line in the report.
 *
 * Row fields:
 * - `id`: short, unique, [a-z0-9-] (also used in workflow and credential ids)
 * - `title`: what the line says
 * - `issue`: the issue the row proves
 * - `needs`: capabilities it cannot run without; a missing one makes the row SKIPPED
 *   with the reason (`fake`: test/support/fake-chat-server.ts)
 * - `pending`: set while the feature under test is not written yet: the row still
 *   runs; a failure is reported as PENDING (counted as skipped) with its message, a
 *   pass as passed with a hint to drop the flag. Remove it when the feature lands.
 * - `run(scope)`: throws on failure
 */
import { packageLoads } from './package-loads.mjs';
import { badFromAi, baselineN8nAgent, fullModeTools } from './tool-agents.mjs';

/**
 * @typedef {object} Scenario
 * @property {string} id
 * @property {string} title
 * @property {number} issue
 * @property {Array<'fake'>} needs
 * @property {string} [pending]
 * @property {(scope: import('../lib/context.mjs').ScenarioScope) => Promise<void>} run
 */

/** @type {Scenario[]} */
export const scenarios = [
	{
		id: 'package-loads',
		title: 'package installs like a community package; n8n start loads its node without errors',
		issue: 6,
		needs: [],
		run: packageLoads,
	},
	{
		id: 'baseline-agent',
		title: "baseline: n8n's AI Agent + OpenRouter model (fake) + Crypto/Date tools via $fromAI",
		issue: 6,
		needs: ['fake'],
		run: baselineN8nAgent,
	},
	{
		id: 'full-mode-tools',
		title: 'full mode: AgentOrchestrator + Crypto/Date tools via $fromAI, typed schemas, manual description',
		issue: 6,
		needs: ['fake'],
		run: fullModeTools,
	},
	{
		id: 'bad-from-ai',
		title: 'a malformed $fromAI in a connected tool fails with an error naming node, parameter and position',
		issue: 6,
		needs: ['fake'],
		pending: "the orchestrator does not yet check connected nodes with the package's $fromAI compiler inside n8n",
		run: badFromAi,
	},
];
