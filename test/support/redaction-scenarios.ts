/**
 * The echo locations of the redaction tests (test/hosts/redaction.test.ts for the library
 * and node hosts, packages/n8n-toolbridge/test/cli/redaction.test.ts for the CLI): a model
 * key and a tool credential, a fake model that echoes the key where a provider might (HTTP
 * error body, mid-stream error, broken chunk) or calls n8n's real HTTP Request tool against a
 * loopback API that echoes the credential header (in a 500's error body, in a 200's JSON),
 * and the workflow that connects them.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';
import type { WorkflowExport } from '../../src/hosts/standalone/workflow-file';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeReply,
	type FakeRequest,
} from './fake-chat-server';
import { orchestratorType } from './real-tool-nodes';

/** The model's API key (not `sk-…`-shaped, so only the known-secret rule can catch it). */
export const modelKey = 'mk-live-53b1e9a7c4d2f806';
/** The tool node's credential value (its `X-Api-Key` header). */
export const toolSecret = 'tool-cred-7f3a9c2e51b8d4';

/** Where a secret is echoed. */
export const locations = [
	'HTTP error body',
	'mid-stream error',
	'bad chunk',
	'tool error',
	'tool output',
] as const;
export type Location = (typeof locations)[number];

/** True for the locations on the model's side (the run fails); the others are a tool's (the run answers). */
export function modelSide(location: Location): boolean {
	return (
		location === 'HTTP error body' || location === 'mid-stream error' || location === 'bad chunk'
	);
}

/** A loopback API that echoes the `X-Api-Key` it received: `/err…` in a 500's error body, anything else in a 200's JSON. */
export async function startEchoApi(): Promise<{ base: string; close: () => Promise<void> }> {
	const server = createServer((request, response) => {
		const key = String(request.headers['x-api-key']);
		if (request.url?.startsWith('/err'))
			response
				.writeHead(500, { 'content-type': 'application/json' })
				.end(JSON.stringify({ error: `${key} rejected` }));
		else
			response
				.writeHead(200, { 'content-type': 'application/json' })
				.end(JSON.stringify({ echo: key }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** The URL the model asks the `Get` tool for at a tool location. */
export function toolUrl(apiBase: string, location: Location, round = 1): string {
	return `${apiBase}/${location === 'tool error' ? 'err' : 'ok'}?round=${round}`;
}

/**
 * The fake model for one location: a faulty answer that echoes the key, or `rounds` calls of
 * the `Get` tool (each turn after the first sees the earlier results), then an answer quoting
 * what the tool said.
 */
export function modelFor(
	location: Location,
	apiBase: string,
	rounds = 1,
): (request: FakeRequest) => FakeReply {
	switch (location) {
		case 'HTTP error body':
			return () => ({
				status: 401,
				errorBody: {
					error: {
						code: 401,
						message: `Invalid API key ${modelKey} (Authorization: Bearer ${modelKey})`,
					},
				},
			});
		case 'mid-stream error':
			return () => ({
				chunks: [
					{
						id: 'g',
						model: 'fake/model',
						choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
					},
					{
						id: 'g',
						model: 'fake/model',
						error: { code: 'upstream_error', message: `Upstream rejected key ${modelKey}` },
						choices: [{ index: 0, delta: {}, finish_reason: 'error' }],
					},
				],
			});
		case 'bad chunk':
			return () => ({ rawSse: `data: {"choices": [], "key": ${modelKey}}\n\n` });
		case 'tool error':
		case 'tool output':
			return ({ body }) => {
				const results = (body.messages as Array<{ role: string; content: string }>).filter(
					(message) => message.role === 'tool',
				);
				if (results.length >= rounds) return textReply(`The tool said: ${results[0].content}`);
				const round = results.length + 1;
				return toolCallReply([
					{ id: `c${round}`, name: 'Get', arguments: { url: toolUrl(apiBase, location, round) } },
				]);
			};
	}
}

/** Runs `work` against a fresh fake model for `location`. */
export async function withModel<T>(
	location: Location,
	apiBase: string,
	work: (baseUrl: string, requests: FakeRequest[]) => Promise<T>,
	rounds = 1,
): Promise<T> {
	const server = await startFakeChatServer({ respond: modelFor(location, apiBase, rounds) });
	try {
		return await work(server.baseUrl, server.requests);
	} finally {
		await server.close();
	}
}

/** n8n's HTTP Request tool with a header credential ("Inventory key"). */
export function getToolNode(): INode {
	return {
		id: 'get',
		name: 'Get',
		type: 'n8n-nodes-base.httpRequestTool',
		typeVersion: 4.2,
		position: [0, 200],
		parameters: {
			toolDescription: 'GETs a URL of the inventory API',
			url: "={{ $fromAI('url', 'The URL', 'string') }}",
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			options: {},
		},
		credentials: { httpHeaderAuth: { id: 'h', name: 'Inventory key' } },
	};
}

/** The Agent Orchestrator's parameters: its model through the "Fake model" credential; debug log and steps on. */
export const agentParameters = {
	authentication: 'openAiCompatibleApi',
	model: 'fake/model',
	prompt: '={{ $json.chatInput }}',
	options: { debugLog: true, returnIntermediateSteps: true, maxIterations: 3 },
};

/** An Agent Orchestrator with the `Get` tool. */
export function redactionWorkflow(): WorkflowExport {
	const agent: INode = {
		id: 'agent',
		name: 'Agent',
		type: orchestratorType,
		typeVersion: 1,
		position: [0, 0],
		parameters: agentParameters,
		credentials: { openAiCompatibleApi: { id: 'm', name: 'Fake model' } },
	};
	return {
		name: 'redaction',
		nodes: [agent, getToolNode()],
		connections: { Get: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] } },
	};
}

/** The credential records of {@link redactionWorkflow}: the model's key and URL, the tool's header. */
export function redactionCredentials(
	baseUrl: string,
	extra: ICredentialDataDecryptedObject = {},
): Record<string, ICredentialDataDecryptedObject> {
	return {
		'Fake model': { apiKey: modelKey, url: baseUrl, ...extra },
		'Inventory key': { name: 'X-Api-Key', value: toolSecret },
	};
}

/** Any part of a secret long enough to matter in `output`: the whole, or its first 10 characters. */
export function secretFragments(output: string): string[] {
	return [modelKey, toolSecret]
		.flatMap((secret) => [secret, secret.slice(0, 10)])
		.filter((fragment) => output.includes(fragment));
}

/** A value as text for the checks. */
export function asText(value: unknown): string {
	return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/** Everything an error shows: message, n8n's description, stack, its JSON. */
export function errorText(error: unknown): string {
	const { message, stack, description } = (error ?? {}) as {
		message?: unknown;
		stack?: unknown;
		description?: unknown;
	};
	return [message, description, stack, asText(error)].map(String).join('\n');
}
