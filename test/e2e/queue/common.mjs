// @ts-check
/**
 * Pieces the queue-mode scenarios share: workflow nodes, webhook calls, readers for chat
 * requests (streamed webhook responses: ../lib/ndjson.mjs).
 */
import { createHash, randomUUID } from 'node:crypto';

import { node, openRouterCredential, workflow } from '../lib/workflows.mjs';

/**
 * A workflow id for a scenario (n8n allows at most 21 characters, so long scenario ids are hashed).
 * @param {{ id: string }} scope
 * @param {string} [suffix] distinguishes several workflows of one scenario
 * @returns {string}
 */
export function workflowIdFor(scope, suffix = '') {
	return `wf-${createHash('sha256').update(`${scope.id}/${suffix}`).digest('hex').slice(0, 16)}`;
}

/**
 * A Webhook node (v2.1) with its own webhook id.
 * @param {string} path
 * @param {'lastNode' | 'streaming' | 'onReceived'} responseMode
 * @returns {import('../lib/workflows.mjs').WorkflowNode & { webhookId: string }}
 */
export function webhookNode(path, responseMode) {
	const parameters = { httpMethod: 'POST', path, responseMode, options: {} };
	if (responseMode === 'lastNode') Object.assign(parameters, { responseData: 'firstEntryJson' });
	return { ...node('Webhook', 'n8n-nodes-base.webhook', 2.1, parameters), webhookId: randomUUID() };
}

/**
 * Our orchestrator in full mode with the engine driver, prompt from the request body.
 * @param {{ id: string, name: string }} credential
 * @param {string} model
 * @param {Record<string, unknown>} [options] extra node options
 * @param {string} [name]
 * @returns {import('../lib/workflows.mjs').WorkflowNode}
 */
export function orchestratorNode(credential, model, options = {}, name = 'Agent Orchestrator') {
	return node(
		name,
		'n8n-nodes-toolbridge.agentOrchestrator',
		1,
		{
			authentication: 'openRouterApi',
			mode: 'full',
			model,
			prompt: '={{ $json.body.message }}',
			options: { toolExecution: 'engine', returnIntermediateSteps: true, ...options },
		},
		{ openRouterApi: credential },
	);
}

/**
 * Create an OpenRouter credential pointing at a fake, through main's REST API.
 * @param {import('./scope.mjs').QueueScope} scope
 * @param {string} baseUrl
 * @param {string} [suffix]
 * @returns {Promise<{ id: string, name: string }>}
 */
export function fakeCredential(scope, baseUrl, suffix = '') {
	const { name, type, data } = openRouterCredential(`${scope.id}${suffix}`, baseUrl);
	return scope.topology.createCredential({ name, type, data });
}

/**
 * Create the fake's credential on main, then create and publish the scenario's workflow there
 * (its webhooks answering).
 * @param {import('./scope.mjs').QueueScope} scope
 * @param {{ baseUrl: string }} fake
 * @param {(credential: { id: string, name: string }) => { nodes: import('../lib/workflows.mjs').WorkflowNode[], connections: Record<string, any> }} build
 * @returns {Promise<string>} the workflow id
 */
export async function deployScenarioWorkflow(scope, fake, build) {
	const credential = await fakeCredential(scope, fake.baseUrl);
	return scope.topology.deployWorkflow(
		workflow({ id: workflowIdFor(scope), name: `E2E ${scope.id}`, ...build(credential) }),
	);
}

/**
 * The messages of a chat request.
 * @param {any} body
 * @returns {any[]}
 */
export function messagesOf(body) {
	return Array.isArray(body?.messages) ? body.messages : [];
}

/**
 * Text of a message's content (string or parts).
 * @param {any} message
 * @returns {string}
 */
export function textOf(message) {
	if (typeof message?.content === 'string') return message.content;
	if (Array.isArray(message?.content))
		return message.content.map((/** @type {any} */ part) => part?.text ?? '').join('');
	return '';
}

/**
 * The roles of a request's messages without the system prompt, e.g. `user,assistant,tool`.
 * @param {any} body
 * @returns {string}
 */
export function rolesOf(body) {
	return messagesOf(body)
		.filter((/** @type {any} */ message) => message.role !== 'system')
		.map((/** @type {any} */ message) => message.role)
		.join(',');
}

/**
 * The tool calls an assistant message of a request carries.
 * @param {any} message
 * @returns {Array<{ id: string, name: string, arguments: any }>}
 */
export function toolCallsOf(message) {
	return (message?.tool_calls ?? []).map((/** @type {any} */ call) => {
		let parsed;
		try {
			parsed = JSON.parse(call.function?.arguments ?? '{}');
		} catch {
			parsed = call.function?.arguments;
		}
		return { id: call.id, name: call.function?.name, arguments: parsed };
	});
}
