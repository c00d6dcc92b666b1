/**
 * The private-network guard of `mcp`/`serve` on n8n's HTTP Request Tool (`toolHttpRequest`, a
 * tool sub-node): a `{placeholder}` in its URL is a URL the model chooses, so a call reaching a
 * loopback/private address is refused as for the HTTP Request node; a URL the workflow fixes
 * (placeholders only in the query) stays reachable.
 */
import { openWorkflowSession, readWorkflowInput, type AgentTool } from 'n8n-nodes-toolbridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodesWithModelChosenUrls } from '../../src/network/model-chosen-urls';
import { privateNetworkGuard } from '../../src/network/private-network-guard';
import { startLoopbackApi, type LoopbackApi } from '../support/loopback-api';

let api: LoopbackApi;
beforeAll(async () => {
	api = await startLoopbackApi();
});
afterAll(() => api.close());

const toolNode = (name: string, parameters: Record<string, unknown>) => ({
	id: name,
	name,
	type: '@n8n/n8n-nodes-langchain.toolHttpRequest',
	typeVersion: 1.1,
	position: [0, 0],
	parameters,
});

function workflow() {
	return readWorkflowInput({
		name: 'HTTP Request Tools',
		nodes: [
			{
				id: 'a',
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 1.7,
				position: [0, 0],
				parameters: {},
			},
			toolNode('Item by id', {
				toolDescription: 'An item by its id',
				url: `http://${api.host}/items/{id}`,
				placeholderDefinitions: { values: [{ name: 'id', type: 'number' }] },
			}),
			toolNode('Fixed item', {
				toolDescription: 'Item 3, in a language',
				url: `http://${api.host}/items/3`,
				sendQuery: true,
				parametersQuery: { values: [{ name: 'lang', valueProvider: 'modelRequired' }] },
			}),
		],
		connections: {
			'Item by id': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
			'Fixed item': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
	});
}

async function tools(guarded: boolean): Promise<Record<string, AgentTool>> {
	const session = await openWorkflowSession(workflow(), {
		env: {},
		guard: guarded ? privateNetworkGuard({}) : undefined,
	});
	return Object.fromEntries(session.tools.map((tool) => [tool.name, tool]));
}

describe("privateNetworkGuard on n8n's HTTP Request Tool", () => {
	it('a {placeholder} in the URL makes it model-chosen; placeholders in the query do not', () => {
		expect([...nodesWithModelChosenUrls(workflow())]).toEqual(['Item by id']);
	});

	it('a call to a loopback address is refused before any request; the model reads why', async () => {
		const guarded = await tools(true);
		const before = api.received.length;
		const observation = await guarded.Item_by_id.invoke({ id: 7 }, { toolCallId: 'ssrf' });
		expect(observation).toEqual({
			content:
				'Error: node "Item by id" failed: Refused to connect to 127.0.0.1: a loopback, private, link-local or cloud-metadata address. Tools may not reach internal networks with URLs the model chooses.\n' +
				'Details: Use a public URL. (Whoever runs this server can allow internal addresses with --allow-private-network.)',
			isError: true,
			data: { error: expect.objectContaining({ name: 'NetworkRefusedError' }) },
		});
		expect(api.received.length).toBe(before);
	});

	it('the URL the workflow fixes stays reachable under the guard; without the guard both go through', async () => {
		const guarded = await tools(true);
		const fixed = await guarded.Fixed_item.invoke({ lang: 'en' }, { toolCallId: 'fixed' });
		expect(fixed.isError).toBe(false);
		expect(JSON.parse(fixed.content)).toEqual({ id: 3, name: 'Lamp' });
		const open = await tools(false);
		const byId = await open.Item_by_id.invoke({ id: 7 }, { toolCallId: 'open' });
		expect(JSON.parse(byId.content)).toEqual({ id: 7, name: 'Lamp' });
		expect(api.received.at(-1)?.path).toBe('/items/7');
	});
});
