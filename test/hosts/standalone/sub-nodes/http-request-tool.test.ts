/**
 * n8n's HTTP Request Tool (`toolHttpRequest`) in the standalone host: `{placeholder}` definitions
 * in the URL, model-filled query parameters and a fixed one, a body, a credential — n8n's node
 * code builds the tool and sends the request (to a loopback server), and the model gets the
 * schema n8n's agent gives it: typed fields for 1.1, one text input for 1.0.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkflowTools } from '../../../../src/hosts/standalone/load-workflow-tools';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import type { WorkflowExport } from '../../../../src/hosts/standalone/workflow-file';
import { n8nAgentTools, toolFaces } from '../../../support/n8n-agent-reference';
import { agentWorkflow, langChainNode } from './sub-node-workflows';

interface Received {
	method: string;
	url: string;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}
const received: Received[] = [];
let server: Server;
let base: string;
let workflow: WorkflowExport;
let host: StandaloneHost;

beforeAll(async () => {
	server = createServer((request, response) => {
		let body = '';
		request.on('data', (chunk) => (body += chunk));
		request.on('end', () => {
			received.push({
				method: request.method ?? '',
				url: request.url ?? '',
				headers: request.headers,
				body,
			});
			if (request.url?.startsWith('/fail')) {
				response.writeHead(503, { 'content-type': 'application/json' });
				response.end(JSON.stringify({ message: 'weather service down' }));
				return;
			}
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ url: request.url, temperature: 21 }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	workflow = agentWorkflow('Weather over HTTP', [
		langChainNode(
			'Get weather',
			'toolHttpRequest',
			1.1,
			{
				toolDescription: 'Get the weather of a city',
				url: `${base}/weather/{city}`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				sendQuery: true,
				parametersQuery: {
					values: [
						{ name: 'units', valueProvider: 'modelOptional' },
						{ name: 'lang', valueProvider: 'fieldValue', value: 'en' },
					],
				},
				placeholderDefinitions: {
					values: [{ name: 'city', description: 'City name', type: 'string' }],
				},
			},
			{ httpHeaderAuth: { id: 'h', name: 'Weather key' } },
		),
		langChainNode('Report', 'toolHttpRequest', 1.1, {
			toolDescription: 'Files a weather report',
			method: 'POST',
			url: `${base}/reports`,
			sendBody: true,
			parametersBody: {
				values: [
					{ name: 'city', valueProvider: 'modelRequired' },
					{ name: 'celsius', valueProvider: 'modelRequired' },
				],
			},
			placeholderDefinitions: {
				values: [{ name: 'celsius', description: 'Temperature in °C', type: 'number' }],
			},
		}),
		langChainNode('Old weather', 'toolHttpRequest', 1, {
			toolDescription: 'Weather, first version',
			url: `${base}/weather/{city}`,
			placeholderDefinitions: { values: [{ name: 'city', type: 'string' }] },
		}),
		langChainNode('Down', 'toolHttpRequest', 1.1, {
			toolDescription: 'Always fails',
			url: `${base}/fail/{what}`,
		}),
	]);
	host = await StandaloneHost.create({
		credentials: { 'Weather key': { name: 'X-Api-Key', value: 'weather-secret-123' } },
		env: {},
	});
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("n8n's HTTP Request Tool", () => {
	it("has the schema n8n's AI Agent gives the model, placeholders and model-filled fields typed", async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const reference = await n8nAgentTools(workflow, 'AI Agent', host);
		expect(toolFaces(loaded.tools)).toEqual(toolFaces(reference.tools));
		const byName = Object.fromEntries(loaded.tools.map((tool) => [tool.name, tool]));
		expect(byName.Get_weather.parameters).toMatchObject({
			properties: {
				city: { type: 'string', description: 'City name' },
				units: { type: 'string' },
			},
			required: ['city'],
		});
		// Version 1 gives the model one text input and describes the fields in the description.
		expect(byName.Old_weather.parameters).toMatchObject({
			properties: { input: { type: 'string' } },
		});
		await Promise.all([loaded.close(), reference.close()]);
	});

	it('sends the request n8n would (placeholder, query, credential header, body) and answers its text', async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const call = (name: string, args: Record<string, unknown>) =>
			loaded.tools.find((tool) => tool.name === name)!.invoke(args, { toolCallId: name });
		received.length = 0;
		const weather = await call('Get_weather', { city: 'Paris', units: 'metric' });
		expect(weather.isError).toBe(false);
		expect(JSON.parse(weather.content)).toEqual({
			url: '/weather/Paris?lang=en&units=metric',
			temperature: 21,
		});
		expect(received[0]).toMatchObject({
			method: 'GET',
			headers: { 'x-api-key': 'weather-secret-123' },
		});
		const report = await call('Report', { city: 'Rome', celsius: 19 });
		expect(report.isError).toBe(false);
		expect(received[1]).toMatchObject({ method: 'POST', url: '/reports' });
		expect(JSON.parse(received[1].body)).toEqual({ city: 'Rome', celsius: 19 });
		const old = await call('Old_weather', { input: '{"city":"Oslo"}' });
		expect(JSON.parse(old.content)).toMatchObject({ url: '/weather/Oslo' });
		await loaded.close();
	});

	it('a failing request is an error observation with the status, as n8n words it', async () => {
		const loaded = await loadWorkflowTools(workflow, { host });
		const reference = await n8nAgentTools(workflow, 'AI Agent', host);
		const down = loaded.tools.find((tool) => tool.name === 'Down')!;
		const observation = await down.invoke({ what: 'now' }, { toolCallId: 'down' });
		expect(observation.isError).toBe(true);
		expect(observation.content).toMatch(
			/^HTTP 503 There was an error: "Request failed with status code 503"/,
		);
		const theirs = reference.tools.find((tool) => tool.name === 'Down')!.tool;
		expect(observation.content).toBe(await theirs.invoke({ what: 'now' }));
		await Promise.all([loaded.close(), reference.close()]);
	});
});
