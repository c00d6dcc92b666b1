/**
 * The workflow JSON a build hands out: positions from the layout (never from the code), node
 * ids from the SDK's deterministic ids (or the edited workflow's), a fresh workflow id, webhook
 * ids where n8n needs them, credentials without an id listed instead of written.
 */
import type { StandaloneHost } from 'n8n-nodes-toolbridge';
import { safeParseWorkflowStructure } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import type { NodeCatalog } from '../../src/builder/catalog/node-catalog';
import { parseWorkflowCode } from '../../src/builder/code/parse-workflow-code';
import { finishWorkflow, type FinishWorkflowOptions } from '../../src/builder/finish-workflow';
import { builderContext } from '../support/builder-context';

let catalog: NodeCatalog;
beforeAll(async () => {
	({ catalog } = (await builderContext()) as { host: StandaloneHost; catalog: NodeCatalog });
}, 120_000);

const code = (positions: boolean) => `
const chat = trigger({ type: '@n8n/n8n-nodes-langchain.chatTrigger', version: 1.1, config: { name: 'Chat'${positions ? ', position: [9999, 9999]' : ''} } });
const model = languageModel({ type: '@n8n/n8n-nodes-langchain.lmChatOpenRouter', version: 1, config: { name: 'Model', id: 'model-id-from-the-model', ${positions ? 'position: [-500, 42], ' : ''}parameters: { model: 'openai/gpt-4o-mini' }, credentials: { openRouterApi: newCredential('OpenRouter account') } } });
const fetchPage = tool({ type: 'n8n-nodes-base.httpRequestTool', version: 4.2, config: { name: 'Fetch page', parameters: { url: fromAi('url', 'The page'), toolDescription: 'Fetches a page' }, credentials: { httpHeaderAuth: newCredential('Header auth', 'cred-7') } } });
const agent = node({ type: '@n8n/n8n-nodes-langchain.agent', version: 3.1, config: { name: 'Agent', ${positions ? 'position: [1, 2], ' : ''}parameters: { promptType: 'auto', options: { systemMessage: 'Fetch pages.' } }, subnodes: { model, tools: [fetchPage] } } });
export default workflow('pages', 'Read pages').add(chat).to(agent);`;

const finish = (source: string, options: FinishWorkflowOptions = {}) =>
	finishWorkflow(parseWorkflowCode(source).builder, catalog, options);

describe('finishWorkflow', () => {
	it('lays the nodes out itself: positions written in the code are dropped', () => {
		const withPositions = finish(code(true)).workflow;
		const without = finish(code(false)).workflow;
		const positions = (nodes: typeof without.nodes) =>
			nodes.map((node) => [node.name, node.position]);
		expect(positions(withPositions.nodes)).toEqual(positions(without.nodes));
		expect(withPositions.nodes.find((node) => node.name === 'Chat')?.position).not.toEqual([
			9999, 9999,
		]);
		expect(new Set(withPositions.nodes.map((node) => node.position.join(','))).size).toBe(4);
	});

	it("node ids are the SDK's deterministic ids, never the code's", () => {
		const first = finish(code(false)).workflow;
		const second = finish(code(true)).workflow;
		expect(first.nodes.map((node) => node.id)).toEqual(second.nodes.map((node) => node.id));
		expect(first.nodes.map((node) => node.id)).not.toContain('model-id-from-the-model');
		expect(new Set(first.nodes.map((node) => node.id)).size).toBe(4);
	});

	it('a fresh workflow id each build, settings for n8n, and n8n accepts the structure', () => {
		const one = finish(code(false)).workflow;
		const two = finish(code(false)).workflow;
		expect(one.id).toMatch(/^[A-Za-z0-9]{16}$/);
		expect(one.id).not.toBe(two.id);
		expect(one).toMatchObject({
			name: 'Read pages',
			active: false,
			settings: { executionOrder: 'v1' },
		});
		expect(one.versionId).toMatch(/^[0-9a-f-]{36}$/);
		expect(safeParseWorkflowStructure(one).success).toBe(true);
	});

	it('webhook ids on every node that serves webhooks (the SDK gives them to three types only)', () => {
		const { workflow } = finish(code(false));
		expect(workflow.nodes.find((node) => node.name === 'Chat')?.webhookId).toMatch(
			/^[0-9a-f-]{36}$/,
		);
		expect(workflow.nodes.find((node) => node.name === 'Agent')?.webhookId).toBeUndefined();
	});

	it('credentials without an id are listed, not written; one with an id is kept', () => {
		const { workflow, credentialsNeeded } = finish(code(false));
		expect(credentialsNeeded).toEqual([
			{ node: 'Model', type: 'openRouterApi', name: 'OpenRouter account' },
		]);
		expect(workflow.nodes.find((node) => node.name === 'Model')?.credentials).toBeUndefined();
		expect(workflow.nodes.find((node) => node.name === 'Fetch page')?.credentials).toEqual({
			httpHeaderAuth: { id: 'cred-7', name: 'Header auth' },
		});
	});

	it('editing keeps the workflow id and the ids of nodes that keep their names; ids can be injected', () => {
		const { workflow } = finish(code(false), {
			existing: { id: 'Existing1234abcd', nodes: [{ name: 'Agent', id: 'agent-1' }] },
			randomId: (kind) =>
				kind === 'workflow' ? 'not-used' : '00000000-0000-4000-8000-000000000000',
		});
		expect(workflow.id).toBe('Existing1234abcd');
		expect(workflow.nodes.find((node) => node.name === 'Agent')?.id).toBe('agent-1');
		expect(workflow.versionId).toBe('00000000-0000-4000-8000-000000000000');
		expect(workflow.nodes.find((node) => node.name === 'Chat')?.webhookId).toBe(
			'00000000-0000-4000-8000-000000000000',
		);
	});
});
