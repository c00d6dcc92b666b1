// @ts-check
/**
 * The core scenarios `npm run test:e2e:compat` runs on every n8n of the matrix, with the
 * node typeVersions that n8n offers (from its own node list, see n8n-profile.mjs) and the
 * Agent Orchestrator at its DEFAULT settings (no "Tool Execution" option set):
 *
 * - `full-mode`: orchestrator (full mode) + Crypto as a `$fromAI` tool. The fake model asserts
 *   that the tool message it gets holds the SHA-256 Crypto computes — an answer is right only
 *   if the real tool ran — and the row reports which tool path n8n took (engine / in-process);
 * - `nested-n8n-agent`: our orchestrator in nested mode as a tool of n8n's own AI Agent;
 * - `human-review`: an Email send-and-wait review gate before Crypto under the orchestrator,
 *   approve then decline (only where this n8n has review gates).
 *
 * Each row returns a one-line summary; it throws on failure.
 */
import { randomUUID } from 'node:crypto';

import { matchStreaming } from '../lib/fake-model.mjs';
import {
	childAnswer,
	n8nAgentOverResearcher,
	parentAndChildFake,
} from '../lib/nested-fixtures.mjs';
import { EXPECTED, hashCallTurn, hashTextTool } from '../lib/tool-fixtures.mjs';
import {
	agentOrchestratorNode,
	connections,
	manualTrigger,
	node,
	nodeOutput,
	runDataOf,
	scenarioWorkflow,
} from '../lib/workflows.mjs';
import { humanReview } from '../scenarios/human-review.mjs';

/**
 * @typedef {import('./n8n-profile.mjs').N8nProfile} N8nProfile
 * @typedef {import('../lib/context.mjs').ScenarioScope} ScenarioScope
 * @typedef {object} CompatScenario
 * @property {string} id
 * @property {string} title
 * @property {(profile: N8nProfile) => string | undefined} [skip] a reason not to run it on this n8n
 * @property {string} [pending] set while a known product bug makes the row fail (reported as PENDING)
 * @property {(scope: ScenarioScope, profile: N8nProfile) => Promise<string>} run the summary line
 */

/**
 * A scenario's workflow as `n8n import:workflow` accepts it on every n8n of the matrix (2.0.x
 * needs a `versionId`).
 * @param {string} scenarioId
 * @param {Parameters<typeof scenarioWorkflow>[1]} spec
 * @returns {Record<string, unknown>}
 */
function compatWorkflow(scenarioId, spec) {
	return { ...scenarioWorkflow(scenarioId, spec), versionId: randomUUID() };
}

/**
 * Import the workflow and its credential, execute it and return the run result; what the fake
 * rejected (an assertion on what the model received) fails the row even when the run passed.
 * @param {ScenarioScope} scope
 * @param {{ baseUrl: string, failures: Error[], assertNoFailures: () => void }} fake
 * @param {(credential: { id: string, name: string }) => Record<string, unknown>} build
 * @returns {Promise<any>} the parsed run result
 * @throws {Error} when the fake rejected a request or n8n reports the execution as failed
 */
async function importAndExecute(scope, fake, build) {
	const result = await scope.importAndExecute({ fake, build });
	fake.assertNoFailures();
	return result;
}

/**
 * Which path a tool node's run took, from what n8n-core logged for it:
 * - engine: n8n ran the node for an engine request action, whose input n8n-core merges with
 *   `toolCallId: action.id` (`prepareRequestedNodesForExecution`), so the output items carry it;
 * - in-process: n8n-core's `makeHandleToolInvocation` logs `{ response: [...items] }`.
 * @param {any[]} runs the tool node's task data
 * @param {string} toolCallId
 * @returns {'engine' | 'in-process' | 'unknown'}
 */
export function toolPathOf(runs, toolCallId) {
	const items = runs
		.flatMap((run) => Object.values(run?.data ?? {}).flat(2))
		.map((item) => item?.json ?? {});
	if (items.some((json) => json.toolCallId === toolCallId)) return 'engine';
	if (items.some((json) => 'response' in json)) return 'in-process';
	return 'unknown';
}

/**
 * Full mode at default settings with Crypto as the only tool; with `subNode`, the model comes
 * from a Toolbridge Chat Model on the orchestrator's Chat Model input (the orchestrator has no
 * credential then), whose runs must show each model call.
 * @param {ScenarioScope} scope
 * @param {N8nProfile} profile
 * @param {{ subNode?: boolean }} [options]
 * @returns {Promise<string>}
 */
async function fullMode(scope, profile, { subNode = false } = {}) {
	const model = subNode ? 'fake/compat-sub-node' : 'fake/compat-full';
	/** @type {{ toolMessage?: string }} */
	const seen = {};
	const fake = await scope.startFake((request, fakeModule) => {
		const turn = hashCallTurn(request, fakeModule, {
			model,
			callId: 'call_hash',
			replyModel: model,
		});
		if (turn.reply) return turn.reply;
		const results = turn.results;
		const result = results.find((entry) => entry.tool_call_id === 'call_hash');
		seen.toolMessage = result?.content;
		if (!result?.content.includes(EXPECTED.sha256)) {
			throw new Error(
				`the model's tool message for Hash_Text is not Crypto's output (SHA-256 ${EXPECTED.sha256.slice(0, 12)}… missing): ${JSON.stringify(result?.content ?? null).slice(0, 400)}`,
			);
		}
		return matchStreaming(request, fakeModule.textReply(`Digest: ${EXPECTED.sha256}.`, { model }));
	});
	const result = await importAndExecute(scope, fake, (credential) =>
		compatWorkflow(scope.id, {
			nodes: [
				manualTrigger(profile.nodes.manualTrigger),
				subNode
					? node('Agent Orchestrator', 'n8n-nodes-toolbridge.agentOrchestrator', 1.1, {
							mode: 'full',
							prompt: 'Hash the text.',
							options: {},
						})
					: agentOrchestratorNode(credential, {
							mode: 'full',
							model,
							prompt: 'Hash the text.',
							options: {},
						}),
				...(subNode
					? [
							node(
								'Toolbridge Chat Model',
								'n8n-nodes-toolbridge.toolbridgeChatModel',
								1,
								{
									authentication: 'openRouterApi',
									model: { __rl: true, mode: 'id', value: model },
									options: {},
								},
								{ openRouterApi: credential },
							),
						]
					: []),
				{ ...hashTextTool(), typeVersion: profile.nodes.crypto },
			],
			connections: connections([
				['Start', 'Agent Orchestrator'],
				['Hash Text', 'Agent Orchestrator', 'ai_tool'],
				...(subNode ? [['Toolbridge Chat Model', 'Agent Orchestrator', 'ai_languageModel']] : []),
			]),
		}),
	);
	if (fake.requests.length !== 2)
		throw new Error(
			`the fake got ${fake.requests.length} requests, expected 2 (tool message seen: ${JSON.stringify(seen.toolMessage ?? null).slice(0, 300)})`,
		);
	const output = nodeOutput(result, 'Agent Orchestrator');
	const answer = JSON.stringify(output[0]?.output ?? output[0]);
	if (!answer.includes(EXPECTED.sha256))
		throw new Error(`the orchestrator's answer lacks the SHA-256: ${answer.slice(0, 400)}`);
	const runs = runDataOf(result)['Hash Text'] ?? [];
	if (runs.length !== 1)
		throw new Error(`'Hash Text' ran ${runs.length} times in n8n's execution data, expected 1`);
	if (!JSON.stringify(runs[0].data ?? {}).includes(EXPECTED.sha256))
		throw new Error(
			`'Hash Text' run output lacks the SHA-256: ${JSON.stringify(runs[0]).slice(0, 500)}`,
		);
	const path = toolPathOf(runs, 'call_hash');
	if (subNode) {
		const modelRuns = runDataOf(result)['Toolbridge Chat Model'] ?? [];
		if (modelRuns.length !== 2)
			throw new Error(
				`'Toolbridge Chat Model' has ${modelRuns.length} runs in n8n's execution data (its Logs), expected one per model call (2)`,
			);
		return `tool path: ${path}; the sub-node's model answered (native path), its 2 calls are its runs in the Logs; Crypto ran once`;
	}
	return `tool path: ${path}; Crypto v${profile.nodes.crypto} ran once, the model read its SHA-256 and the answer carries it`;
}

/**
 * The nested orchestrator as a tool of n8n's AI Agent (the version this n8n offers).
 * n8n's agent hands the child's answer back as plain text (in-process tool) or as its
 * JSON item list `[{"output": …}]` (engine-run tool node); either must hold the child's
 * exact answer, encoded at most once.
 * @param {ScenarioScope} scope
 * @param {N8nProfile} profile
 * @returns {Promise<string>}
 */
async function nestedUnderN8nAgent(scope, profile) {
	const models = { parent: 'fake/compat-parent', child: 'fake/compat-child' };
	const { fake, parentReplies, childReplies, seen } = await parentAndChildFake(scope, models);
	const result = await importAndExecute(scope, fake, (credential) =>
		compatWorkflow(
			scope.id,
			n8nAgentOverResearcher({
				trigger: manualTrigger(profile.nodes.manualTrigger),
				credential,
				models,
				versions: profile.nodes,
			}),
		),
	);
	if (parentReplies.length !== 2 || childReplies.length !== 2) {
		throw new Error(
			`requests: parent ${parentReplies.length}, child ${childReplies.length}; expected 2 each`,
		);
	}
	const expectedAnswer = childAnswer(EXPECTED.sha256);
	const [output] = nodeOutput(result, 'AI Agent');
	if (!String(output?.output).includes(EXPECTED.sha256))
		throw new Error(
			`the AI Agent's answer lacks the digest: ${JSON.stringify(output).slice(0, 600)}`,
		);
	let delivery;
	if (seen.toolResult === expectedAnswer) delivery = 'plain text (in-process tool)';
	else {
		let items;
		try {
			items = JSON.parse(String(seen.toolResult));
		} catch {
			items = undefined;
		}
		if (
			!Array.isArray(items) ||
			items.length !== 1 ||
			Object.keys(items[0] ?? {}).join() !== 'output' ||
			items[0].output !== expectedAnswer
		) {
			throw new Error(
				`the parent model's tool message is ${JSON.stringify(seen.toolResult)}, expected the child's answer as plain text or as [{"output": <answer>}] (encoded once)`,
			);
		}
		delivery = 'n8n item list [{"output": …}] (engine-run tool node)';
	}
	const runData = runDataOf(result);
	const hashRuns = runData['Hash Text'] ?? [];
	if (hashRuns.length !== 1)
		throw new Error(`'Hash Text' ran ${hashRuns.length} times, expected 1 (the child's one call)`);
	const researcherRuns = runData.Researcher?.length ?? 0;
	return `AI Agent v${profile.nodes.agent} → Researcher (${researcherRuns} run(s)): the parent model read the child's answer as ${delivery}; the child's Crypto call: ${toolPathOf(hashRuns, 'call_child_hash')}`;
}

/** @type {CompatScenario[]} */
export const compatScenarios = [
	{
		id: 'full-mode',
		title:
			'orchestrator (full mode, default settings) + Crypto tool: the model reads the real SHA-256',
		run: fullMode,
	},
	{
		id: 'toolbridge-chat-model',
		title:
			'orchestrator (version 1.1, no credential) + Toolbridge Chat Model sub-node + Crypto: the sub-node works on every n8n (no @n8n/ai-node-sdk before 2.x)',
		run: (scope, profile) => fullMode(scope, profile, { subNode: true }),
	},
	{
		id: 'nested-n8n-agent',
		title: "orchestrator (nested mode) as a tool of n8n's AI Agent",
		run: nestedUnderN8nAgent,
	},
	{
		id: 'human-review',
		title:
			'n8n start: Email send-and-wait review gate before Crypto under the orchestrator (default settings): approve, then decline',
		skip: (profile) =>
			profile.features.humanReview
				? undefined
				: `n8n ${profile.n8n} has no human-review gates (…HitlTool nodes arrived with n8n-core 2.6)`,
		run: async (scope, profile) => {
			await humanReview({
				agent: 'orchestrator',
				decisions: ['approve', 'decline'],
				orchestratorOptions: {},
				nodeVersions: profile.nodes,
			})(scope);
			// humanReview throws unless: approve → Crypto ran once and the model read its SHA-256;
			// decline → Crypto never ran and the model read the decline. Review gates work only
			// through engine requests, so this row's tool path is the engine's.
			return `tool path: engine; Email Send v${profile.nodes.emailSend} gate: approve → Crypto ran once, the model read the SHA-256; decline → Crypto never ran, the model read the decline`;
		},
	},
];
