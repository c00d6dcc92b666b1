/**
 * The private-network guard in sub-workflows: the model gives a sub-workflow its inputs, so a
 * sub-workflow whose nodes compute a URL with an expression runs guarded (a loopback URL the
 * model passes in is refused), while one whose URLs are fixed runs as written.
 */
import { openWorkflowSession, type AgentTool } from 'n8n-nodes-toolbridge';
import type { INode } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasExpressionUrls } from '../../src/network/data-chosen-urls';
import { privateNetworkGuard } from '../../src/network/private-network-guard';
import { startLoopbackApi, type LoopbackApi } from '../support/loopback-api';
import { repoRoot } from '../support/toolbridge-process';

let api: LoopbackApi;
beforeAll(async () => {
	api = await startLoopbackApi();
});
afterAll(() => api.close());

function executeWorkflowTool(name: string, id: string, inputs: Record<string, string>): INode {
	return {
		id: name,
		name,
		type: 'n8n-nodes-base.executeWorkflow',
		typeVersion: 1.2,
		position: [0, 0],
		parameters: {
			workflowId: { __rl: true, value: id, mode: 'id' },
			options: {},
			workflowInputs: {
				mappingMode: 'defineBelow',
				value: inputs,
				matchingColumns: [],
				schema: Object.keys(inputs).map((key) => ({ id: key, displayName: key, type: 'any' })),
			},
		},
	};
}

async function guardedTool(node: INode): Promise<AgentTool> {
	const agent = {
		id: 'agent',
		name: 'Agent',
		type: 'n8n-nodes-toolbridge.agentOrchestrator',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const session = await openWorkflowSession(
		{
			nodes: [agent, node],
			connections: { [node.name]: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] } },
		},
		{
			env: {},
			workflows: `${repoRoot}/fixtures/workflows/sub-workflows`,
			credentials: { 'Loopback key': { name: 'X-Key', value: 'k' } },
			guard: privateNetworkGuard({}),
		},
	);
	return session.tools[0];
}

describe('privateNetworkGuard in sub-workflows', () => {
	it('a URL the model passes into a sub-workflow that fetches it: refused before any request', async () => {
		const tool = await guardedTool(
			executeWorkflowTool('Fetch', 'sub-fetch', { url: "={{ $fromAI('url') }}" }),
		);
		const before = api.received.length;
		const observation = await tool.invoke(
			{ url: `http://${api.host}/items/1` },
			{ toolCallId: 'g1' },
		);
		expect(observation.isError).toBe(true);
		expect(observation.content).toBe(
			'Error: node "Fetch" failed: Sub-workflow "Fetch with key": Refused to connect to 127.0.0.1: a loopback, private, link-local or cloud-metadata address. Tools may not reach internal networks with URLs the model chooses.',
		);
		expect(api.received.length).toBe(before);
	});

	it('a sub-workflow with no URL computed from its inputs runs unguarded', async () => {
		const tool = await guardedTool(
			executeWorkflowTool('Add', 'sub-add', {
				a: "={{ $fromAI('a', '', 'number') }}",
				b: '={{ 1 }}',
			}),
		);
		expect(await tool.invoke({ a: 1 }, { toolCallId: 'g2' })).toMatchObject({
			isError: false,
			value: [{ sum: 2 }],
		});
	});

	it('hasExpressionUrls: an expression in a url/endpoint/host parameter, at any depth', () => {
		const workflow = (parameters: object) => ({
			nodes: [{ name: 'N', type: 't', typeVersion: 1, position: [0, 0], parameters }] as INode[],
			connections: {},
		});
		expect(hasExpressionUrls(workflow({ url: '={{ $json.url }}' }))).toBe(true);
		expect(hasExpressionUrls(workflow({ options: { baseUrl: '=https://{{ $json.host }}' } }))).toBe(
			true,
		);
		expect(hasExpressionUrls(workflow({ url: 'https://api.example.com/x' }))).toBe(false);
		expect(hasExpressionUrls(workflow({ text: '={{ $json.url }}' }))).toBe(false);
	});
});
