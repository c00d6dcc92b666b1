/**
 * n8n's Call n8n Workflow Tool in the standalone host, every typeVersion n8n 2.41.1 ships
 * (1, 1.1, 1.2, 1.3 — templates' majority — and 2, 2.1, 2.2): n8n's own node code supplies the
 * tool, the model gets exactly the name, description and schema n8n's AI Agent gives it, and a
 * call answers what n8n's own tool answers (its sub-workflow run by the standalone host). Inputs
 * through `workflowInputs` with `$fromAI` (≥ 2) and through the older definitions (a plain
 * `query`, a schema from a JSON example or written by hand, extra `fields`); sources Database
 * (by id, by the "From list" name, this workflow) and Parameter; errors, depth, cancel, guard.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { INode } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkflowTools } from '../../../../src/hosts/standalone/load-workflow-tools';
import type { NodeRunGuard } from '../../../../src/hosts/standalone/node-run-guard';
import { openWorkflowSession } from '../../../../src/hosts/standalone/session/open-workflow-session';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import { subWorkflowScope } from '../../../../src/hosts/standalone/sub-workflows/sub-workflow-runner';
import type { WorkflowExport } from '../../../../src/hosts/standalone/workflow-file';
import { n8nAgentTools } from '../../../support/n8n-agent-reference';
import { ownSubWorkflow, SUB_WORKFLOWS_DIR } from '../../../support/sub-workflow-nodes';
import {
	TOOL_WORKFLOW_VERSIONS,
	toolWorkflowNode,
	workflowInputs,
} from '../../../support/tool-workflow-nodes';
import { agentWorkflow, langChainNode } from '../sub-nodes/sub-node-workflows';

const addInputs = workflowInputs({
	a: "={{ $fromAI('a', 'first number', 'number') }}",
	b: "={{ $fromAI('b', 'second number', 'number') }}",
});
const received = (value: unknown) => JSON.stringify({ received: JSON.stringify(value) }, null, 2);
const sum5 = { sum: 5, got: JSON.stringify({ a: 2, b: 3 }) };

/** Per version: the node, the model's arguments, and what n8n's tool answers. */
const cases: Array<[number, INode, Record<string, unknown>, string]> = [
	[
		1,
		toolWorkflowNode('Trip v1', 1, {
			workflowId: 'sub-echo',
			specifyInputSchema: true,
			schemaType: 'fromJson',
			jsonSchemaExample: '{ "city": "Rome", "days": 2 }',
		}),
		{ city: 'Rome', days: 2 },
		received({ query: { city: 'Rome', days: 2 } }),
	],
	[
		1.1,
		toolWorkflowNode('Echo v1.1', 1.1, {
			workflowId: 'sub-echo',
			fields: { values: [{ name: 'extra', stringValue: 'fixed' }] },
		}),
		{ input: 'hello' },
		received({ query: 'hello', extra: 'fixed' }),
	],
	[
		1.2,
		toolWorkflowNode('Echo v1.2', 1.2, { workflowId: 'Xy12stale', cachedResultName: 'Echo' }),
		{ input: 'hello' },
		received({ query: 'hello' }),
	],
	[
		1.3,
		toolWorkflowNode('City v1.3', 1.3, {
			workflowId: 'sub-echo',
			specifyInputSchema: true,
			schemaType: 'manual',
			inputSchema:
				'{"type":"object","properties":{"city":{"type":"string","description":"The city"}},"required":["city"]}',
		}),
		{ city: 'Oslo' },
		received({ query: { city: 'Oslo' } }),
	],
	[
		2,
		toolWorkflowNode('Add v2', 2, { workflowId: 'sub-add', workflowInputs: addInputs }),
		{ a: 2, b: 3 },
		JSON.stringify(sum5, null, 2),
	],
	[
		2.1,
		toolWorkflowNode('Add v2.1', 2.1, { workflowId: 'sub-add', workflowInputs: addInputs }),
		{ a: 2, b: 3 },
		JSON.stringify([sum5], null, 2),
	],
	[
		2.2,
		toolWorkflowNode('Add v2.2', 2.2, { workflowId: 'sub-add', workflowInputs: addInputs }),
		{ a: 2, b: 3 },
		JSON.stringify([sum5], null, 2),
	],
];

let host: StandaloneHost;
let server: Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
	host = await StandaloneHost.create({ env: {}, workflows: SUB_WORKFLOWS_DIR });
	server = createServer((request, response) => {
		hits.push(request.url ?? '');
		response.writeHead(200, { 'content-type': 'application/json' }).end('{"reached":true}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function oneTool(workflow: WorkflowExport) {
	const loaded = await loadWorkflowTools(workflow, { host });
	return { tool: loaded.tools[0], close: () => loaded.close() };
}

describe('Call n8n Workflow Tool, every typeVersion', () => {
	it('covers every version n8n ships', () => {
		expect(cases.map(([version]) => version)).toEqual([...TOOL_WORKFLOW_VERSIONS]);
	});

	it.each(cases)(
		'typeVersion %s: n8n’s name, description and schema; the call answers what n8n’s tool answers',
		async (_version, node, args, expected) => {
			const workflow = agentWorkflow('Call workflow tool', [node]);
			const { tool, close } = await oneTool(workflow);
			const reference = await n8nAgentTools(
				workflow,
				'AI Agent',
				host,
				{},
				{
					subWorkflows: subWorkflowScope(host, workflow),
				},
			);
			const [n8nTool] = reference.tools;
			expect({
				name: tool.name,
				description: tool.description,
				parameters: tool.parameters,
			}).toEqual({
				name: n8nTool.name,
				description: n8nTool.description,
				parameters: n8nTool.parameters,
			});
			const observation = await tool.invoke(args, { toolCallId: 'c1' });
			expect(observation).toMatchObject({ isError: false, content: expected });
			expect(await n8nTool.tool.invoke(args)).toBe(expected);
			await close();
			await reference.close();
		},
	);
});

describe('Call n8n Workflow Tool: sources and failures', () => {
	it('this workflow, as templates write it ({{ $workflow.id }}): its own trigger branch runs, beside the agent’s chat trigger and model', async () => {
		const own = ownSubWorkflow('Upper', ['query'], { shout: '={{ $json.query.toUpperCase() }}' });
		const shout = toolWorkflowNode('Shout', 1, { workflowId: '={{ $workflow.id }}' });
		const workflow = agentWorkflow(
			'Template',
			[shout],
			[
				...own.nodes,
				langChainNode('When chat message received', 'chatTrigger', 1.1),
				langChainNode('Model', 'lmChatOpenAi', 1.2),
			],
			[{ from: 'Model', to: 'AI Agent', type: 'ai_languageModel' }],
		);
		workflow.connections = { ...workflow.connections, ...own.connections };
		const { tool, close } = await oneTool(workflow);
		expect(await tool.invoke({ input: 'hello' }, { toolCallId: 's1' })).toMatchObject({
			isError: false,
			content: JSON.stringify({ shout: 'HELLO' }, null, 2),
		});
		await close();
	});

	it('Parameter: the workflow JSON in the node runs (n8n offers no workflowInputs there: the model gives one query)', async () => {
		const code = readFileSync(join(SUB_WORKFLOWS_DIR, 'echo.json'), 'utf8');
		const node = toolWorkflowNode('Inline echo', 2.1, { source: 'parameter', workflowJson: code });
		const { tool, close } = await oneTool(agentWorkflow('Inline', [node]));
		expect(tool.parameters.properties).toEqual({ input: { type: 'string' } });
		expect(await tool.invoke({ input: 'hello' }, { toolCallId: 'p1' })).toMatchObject({
			isError: false,
			content: JSON.stringify([{ received: JSON.stringify({ query: 'hello' }) }], null, 2),
		});
		await close();
	});

	it.each([
		[
			'a failing sub-workflow names the sub-workflow and its node',
			'sub-fail',
			'There was an error: "Sub-workflow "Always fails" failed at node "Stop here": boom from sub-workflow"',
		],
		[
			'a workflow that calls itself stops at the depth limit',
			'sub-loop',
			'There was an error: "Sub-workflow "Calls itself" was not run: workflows calling workflows would go deeper than 10 levels (Call workflow tool › Calls itself (×11)). Does a workflow call itself? Give it a condition that ends the recursion."',
		],
	])('%s: an error result the model reads', async (_case, id, content) => {
		const node = toolWorkflowNode('Call it', 2.2, { workflowId: id });
		const { tool, close } = await oneTool(agentWorkflow('Call workflow tool', [node]));
		expect(await tool.invoke({ input: 'go' }, { toolCallId: 'e1' })).toEqual({
			content,
			isError: true,
		});
		await close();
	});

	it('a depth error ends that call only: the next call of the same tool runs (the model picks the workflow)', async () => {
		const node = toolWorkflowNode('Any workflow', 2.2, {
			workflowId: "={{ $fromAI('workflow', 'sub-loop or sub-echo') }}",
			workflowInputs: workflowInputs({ text: "={{ $fromAI('text') }}" }, 'string'),
		});
		const { tool, close } = await oneTool(agentWorkflow('Pick', [node]));
		const loop = await tool.invoke({ workflow: 'sub-loop', text: 'go' }, { toolCallId: 'd1' });
		expect(loop.content).toMatch(/^There was an error: "Sub-workflow "Calls itself" was not run/);
		expect(
			await tool.invoke({ workflow: 'sub-echo', text: 'x' }, { toolCallId: 'd2' }),
		).toMatchObject({
			isError: false,
		});
		await close();
	});

	it("the call's cancel signal cancels the sub-workflow the tool started: the node after its Wait never runs", async () => {
		const node = toolWorkflowNode('Slow', 2.2, {
			workflowId: 'sub-slow',
			workflowInputs: workflowInputs({ seconds: '={{ 1 }}', url: `=${base}/after` }, 'string'),
		});
		const { tool, close } = await oneTool(agentWorkflow('Slow', [node]));
		const before = hits.length;
		const observation = await tool.invoke(
			{},
			{ toolCallId: 'x1', signal: AbortSignal.timeout(200) },
		);
		expect(observation.isError).toBe(true);
		await new Promise((resolve) => setTimeout(resolve, 1_500));
		expect(hits.slice(before)).toEqual([]);
		await close();
	});

	it("the session's guard stands around the tool's sub-workflow run", async () => {
		const seen: string[] = [];
		const guard: NodeRunGuard = async ({ node, subWorkflow }, run) => {
			seen.push(subWorkflow ? `${node.name} → ${subWorkflow.name}` : node.name);
			return run();
		};
		const node = toolWorkflowNode('Add v2.2', 2.2, {
			workflowId: 'sub-add',
			workflowInputs: addInputs,
		});
		const session = await openWorkflowSession(agentWorkflow('Guarded', [node]), { host, guard });
		expect(await session.tools[0].invoke({ a: 2, b: 3 }, { toolCallId: 'g1' })).toMatchObject({
			isError: false,
		});
		expect(seen).toEqual(['Add v2.2', 'Add v2.2 → Add numbers']);
		await session.close();
	});
});
