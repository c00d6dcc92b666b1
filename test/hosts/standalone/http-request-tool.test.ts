import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentTool } from '../../../src/tools/agent-tool';
import { loadWorkflowTools } from '../../../src/hosts/standalone/load-workflow-tools';
import { StandaloneHost } from '../../../src/hosts/standalone/standalone-host';
import { FIXTURE_PACKAGE, workflowFixture } from '../../tools/helpers';

const SECRET = 'sk-test-6b1f0c2e9d';
const received: Array<{ url: string; headers: IncomingHttpHeaders; closed: Promise<void> }> = [];
let server: Server;
let base: string;

beforeAll(async () => {
	server = createServer((request, response) => {
		received.push({
			url: request.url ?? '',
			headers: request.headers,
			closed: new Promise((resolve) => response.once('close', () => resolve())),
		});
		const url = new URL(request.url ?? '/', 'http://localhost');
		if (url.pathname === '/stall') return; // never answers
		if (url.pathname === '/items/7') {
			response
				.writeHead(200, { 'content-type': 'application/json' })
				.end(JSON.stringify({ id: 7, name: 'Lamp', stock: 3 }));
		} else if (url.pathname === '/search') {
			const limit = Number(url.searchParams.get('limit'));
			const results = Array.from({ length: limit }, (_, index) => ({
				id: index + 1,
				match: url.searchParams.get('q'),
			}));
			response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(results));
		} else {
			response
				.writeHead(404, { 'content-type': 'application/json' })
				.end(JSON.stringify({ error: 'no such item' }));
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function toolsWith(
	credentials: Record<string, Record<string, string>>,
): Promise<Record<string, AgentTool>> {
	const host = await StandaloneHost.create({
		packageDirs: [FIXTURE_PACKAGE],
		credentials,
		env: {},
	});
	const { tools, agentNode } = await loadWorkflowTools(workflowFixture('http-tools.json'), {
		host,
	});
	expect(agentNode.type).toBe('@n8n/n8n-nodes-langchain.agent');
	return Object.fromEntries(tools.map((tool) => [tool.name, tool]));
}

describe('HTTP Request tool (httpRequestTool v4.2) against a loopback server', () => {
	it('sends the credential by its workflow name and returns the body, without echoing the secret', async () => {
		const tools = await toolsWith({ 'Inventory API key': { name: 'X-Api-Key', value: SECRET } });
		const observation = await tools.Fetch_item.invoke(
			{ url: `http://${base}/items/7` },
			{ toolCallId: 'c1' },
		);
		expect(observation.isError).toBe(false);
		expect(JSON.parse(observation.content)).toEqual([{ id: 7, name: 'Lamp', stock: 3 }]);
		expect(received.at(-1)?.headers['x-api-key']).toBe(SECRET);
		expect(observation.content).not.toContain(SECRET);
	});

	it('finds a credential by type too', async () => {
		const tools = await toolsWith({ httpHeaderAuth: { name: 'X-Api-Key', value: 'by-type' } });
		await tools.Fetch_item.invoke({ url: `http://${base}/items/7` }, { toolCallId: 'c2' });
		expect(received.at(-1)?.headers['x-api-key']).toBe('by-type');
	});

	it('a missing credential is a clear observation naming credential, type and where to put it', async () => {
		const tools = await toolsWith({});
		const before = received.length;
		const observation = await tools.Fetch_item.invoke(
			{ url: `http://${base}/items/7` },
			{ toolCallId: 'c3' },
		);
		expect(observation.isError).toBe(true);
		expect(observation.content).toContain(
			'Node "Fetch item" needs credential "Inventory API key" (type httpHeaderAuth), which was not supplied',
		);
		expect(observation.content).toContain('--credentials');
		expect(received.length).toBe(before);
	});

	it('an HTTP 404 becomes the node error as an observation', async () => {
		const tools = await toolsWith({ 'Inventory API key': { name: 'X-Api-Key', value: SECRET } });
		const observation = await tools.Fetch_item.invoke(
			{ url: `http://${base}/items/999` },
			{ toolCallId: 'c4' },
		);
		expect(observation.isError).toBe(true);
		expect(observation.content).toMatch(
			/^Error: node "Fetch item" failed: .*(404|resource you are requesting could not be found)/s,
		);
		expect(observation.content).not.toContain(SECRET);
	});

	it('a mixed-template URL and query parameters with a coerced number and a default', async () => {
		const tools = await toolsWith({});
		const observation = await tools.Search_items.invoke(
			{ host: base, query: 'desk lamp', limit: '2' },
			{ toolCallId: 'c5' },
		);
		expect(received.at(-1)?.url).toBe('/search?q=desk%20lamp&limit=2');
		expect(JSON.parse(observation.content)).toEqual([
			{ id: 1, match: 'desk lamp' },
			{ id: 2, match: 'desk lamp' },
		]);
		await tools.Search_items.invoke({ host: base, query: 'x' }, { toolCallId: 'c6' });
		expect(received.at(-1)?.url).toBe('/search?q=x&limit=5');
	});

	it("a cancelled call answers at once and stops the node's request (its connection closes)", async () => {
		const tools = await toolsWith({ 'Inventory API key': { name: 'X-Api-Key', value: SECRET } });
		const controller = new AbortController();
		const before = received.length;
		const call = tools.Fetch_item.invoke(
			{ url: `http://${base}/stall` },
			{ toolCallId: 'c7', signal: controller.signal },
		);
		await expect.poll(() => received.length, { timeout: 10_000 }).toBe(before + 1);
		controller.abort();
		expect(await call).toMatchObject({
			isError: true,
			content: 'Error: node "Fetch item" failed: The run of node "Fetch item" was cancelled.',
		});
		await expect(received.at(-1)!.closed).resolves.toBeUndefined();
	});

	it('a call cancelled before it starts never runs the node', async () => {
		const tools = await toolsWith({ 'Inventory API key': { name: 'X-Api-Key', value: SECRET } });
		const before = received.length;
		const observation = await tools.Fetch_item.invoke(
			{ url: `http://${base}/items/7` },
			{ toolCallId: 'c8', signal: AbortSignal.abort() },
		);
		expect(observation.isError).toBe(true);
		expect(observation.content).toContain('cancelled before the node ran');
		expect(received.length).toBe(before);
	});
});
