// @ts-check
/**
 * Small builders for the workflow and credential JSON the scenarios import into n8n,
 * and readers for what `n8n execute --rawOutput` returns.
 */

/** The API key the fake credentials carry (a dummy; the fake checks it arrives). */
export const FAKE_API_KEY = 'sk-or-e2e-fake-key';

/**
 * @typedef {{ id: string, name: string, type: string, typeVersion: number, position: [number, number], parameters: Record<string, unknown>, credentials?: Record<string, { id: string, name: string }>, webhookId?: string }} WorkflowNode
 */

/**
 * A workflow as `n8n import:workflow` accepts it.
 * @param {{ id: string, name: string, nodes: WorkflowNode[], connections: Record<string, any> }} spec
 *   `id`: at most 21 characters
 * @returns {Record<string, unknown>}
 * @throws {Error} when the id is too long for n8n
 */
export function workflow(spec) {
	if (spec.id.length > 21) throw new Error(`workflow id '${spec.id}' is longer than 21 characters`);
	return {
		id: spec.id,
		name: spec.name,
		active: false,
		nodes: spec.nodes,
		connections: spec.connections,
		settings: { executionOrder: 'v1', timezone: 'UTC' },
		pinData: {},
	};
}

let nodeCounter = 0;

/**
 * One workflow node.
 * @param {string} name
 * @param {string} type
 * @param {number} typeVersion
 * @param {Record<string, unknown>} parameters
 * @param {Record<string, { id: string, name: string }>} [credentials]
 * @returns {WorkflowNode}
 */
export function node(name, type, typeVersion, parameters, credentials) {
	nodeCounter += 1;
	return {
		id: `00000000-0000-4000-8000-${String(nodeCounter).padStart(12, '0')}`,
		name,
		type,
		typeVersion,
		position: [nodeCounter * 220, 300],
		parameters,
		...(credentials ? { credentials } : {}),
	};
}

/**
 * The workflow of a scenario: its id (`wf-<scenario id>`, cut to n8n's 21 characters) and name.
 * @param {string} scenarioId
 * @param {{ nodes: WorkflowNode[], connections: Record<string, any> }} spec
 * @returns {Record<string, unknown>}
 */
export function scenarioWorkflow(scenarioId, spec) {
	return workflow({ id: `wf-${scenarioId}`.slice(0, 21), name: `E2E ${scenarioId}`, ...spec });
}

/**
 * A Manual Trigger named `Start`.
 * @param {number} [typeVersion]
 * @returns {WorkflowNode}
 */
export function manualTrigger(typeVersion = 1) {
	return node('Start', 'n8n-nodes-base.manualTrigger', typeVersion, {});
}

/**
 * n8n's AI Agent named `AI Agent`, its prompt written in the node.
 * @param {string} text the prompt
 * @param {number} [typeVersion]
 * @returns {WorkflowNode}
 */
export function aiAgentNode(text, typeVersion = 3.1) {
	return node('AI Agent', '@n8n/n8n-nodes-langchain.agent', typeVersion, {
		promptType: 'define',
		text,
		options: {},
	});
}

/**
 * n8n's OpenRouter Chat Model named `OpenRouter Model`, on an OpenRouter credential.
 * @param {{ id: string, name: string }} credential
 * @param {string} model
 * @param {number} [typeVersion]
 * @returns {WorkflowNode}
 */
export function openRouterModelNode(credential, model, typeVersion = 1) {
	return node(
		'OpenRouter Model',
		'@n8n/n8n-nodes-langchain.lmChatOpenRouter',
		typeVersion,
		{ model, options: {} },
		{ openRouterApi: credential },
	);
}

/**
 * Our Agent Orchestrator (version 1) on an OpenRouter credential.
 * @param {{ id: string, name: string }} credential
 * @param {Record<string, unknown>} parameters `mode`, `model`, `prompt`, `options` …
 * @param {string} [name]
 * @returns {WorkflowNode}
 */
export function agentOrchestratorNode(credential, parameters, name = 'Agent Orchestrator') {
	return node(
		name,
		'n8n-nodes-toolbridge.agentOrchestrator',
		1,
		{ authentication: 'openRouterApi', ...parameters },
		{ openRouterApi: credential },
	);
}

/**
 * Connections in n8n's shape from a list of edges.
 * @param {Array<[from: string, to: string, type?: string]>} edges `type` defaults to `main`
 * @returns {Record<string, any>}
 */
export function connections(edges) {
	/** @type {Record<string, any>} */
	const result = {};
	for (const [from, to, type = 'main'] of edges) {
		const byType = (result[from] ??= {});
		const outputs = (byType[type] ??= [[]]);
		outputs[0].push({ node: to, type, index: 0 });
	}
	return result;
}

/**
 * An `openRouterApi` credential pointing at a fake server, for `n8n import:credentials`.
 * @param {string} id
 * @param {string} baseUrl e.g. `http://127.0.0.1:1234/v1`
 * @returns {{ id: string, name: string, type: string, data: Record<string, unknown> }}
 */
export function openRouterCredential(id, baseUrl) {
	return {
		id,
		name: `E2E OpenRouter ${id}`,
		type: 'openRouterApi',
		data: { apiKey: FAKE_API_KEY, url: baseUrl },
	};
}

/**
 * The run data of `n8n execute --rawOutput` (accepts the whole IRun or its `data`).
 * @param {any} result
 * @returns {Record<string, any[]>}
 * @throws {Error} when the shape is not recognised
 */
export function runDataOf(result) {
	const runData = result?.data?.resultData?.runData ?? result?.resultData?.runData;
	if (!runData)
		throw new Error(`no runData in n8n output: ${JSON.stringify(result).slice(0, 800)}`);
	return runData;
}

/**
 * The `main` output items (json) of a node's last run.
 * @param {any} result parsed `n8n execute --rawOutput`
 * @param {string} nodeName
 * @returns {any[]}
 * @throws {Error} when the node did not run
 */
export function nodeOutput(result, nodeName) {
	const runs = runDataOf(result)[nodeName];
	if (!runs?.length)
		throw new Error(
			`node '${nodeName}' did not run; ran: ${Object.keys(runDataOf(result)).join(', ')}`,
		);
	const last = runs[runs.length - 1];
	if (last.error)
		throw new Error(
			`node '${nodeName}' failed: ${last.error.message} ${last.error.description ?? ''}`,
		);
	return (last.data?.main?.[0] ?? []).map((/** @type {any} */ item) => item.json);
}

/**
 * The error message n8n recorded for a failed run, if any.
 * @param {any} result
 * @returns {string | undefined}
 */
export function runError(result) {
	const error = result?.data?.resultData?.error ?? result?.resultData?.error;
	if (!error) return undefined;
	return [error.message, error.description].filter(Boolean).join(' — ');
}

/**
 * The errors recorded on node runs, `node: message`, joined.
 * @param {any} result
 * @returns {string | undefined}
 */
export function nodeErrors(result) {
	const runData = result?.data?.resultData?.runData ?? result?.resultData?.runData ?? {};
	const errors = Object.entries(runData).flatMap(([name, runs]) =>
		/** @type {any[]} */ (runs)
			.filter((run) => run?.error)
			.map(
				(run) =>
					`${name}: ${[run.error.message, run.error.description].filter(Boolean).join(' — ')}`,
			),
	);
	return errors.length > 0 ? errors.join('; ') : undefined;
}
