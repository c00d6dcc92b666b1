/**
 * How a sub-workflow runs in the standalone host, through n8n-nodes-base's real Execute
 * Workflow node: whole, from its trigger, with the Execute Workflow node inside it working
 * too; a failure names the sub-workflow and the node; a workflow that calls itself stops at the
 * depth limit with one clear error; a run that stops to wait, "don't wait for the sub-workflow",
 * the cancel signal reaching the sub-workflow's own nodes, and n8n's rule for which runs of
 * the last node make the result.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INode, IRun } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkflowTools } from '../../../../src/hosts/standalone/load-workflow-tools';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import { subWorkflowOutput } from '../../../../src/hosts/standalone/sub-workflows/sub-workflow-output';
import {
	callerWorkflow,
	executeWorkflowNode,
	SUB_WORKFLOWS_DIR,
	workflowLocator,
} from '../../../support/sub-workflow-nodes';
import { FIXTURE_PACKAGE } from '../../../tools/helpers';

let host: StandaloneHost;
let server: Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
	host = await StandaloneHost.create({
		packageDirs: [FIXTURE_PACKAGE],
		env: {},
		workflows: SUB_WORKFLOWS_DIR,
	});
	server = createServer((request, response) => {
		hits.push(request.url ?? '');
		response.writeHead(200, { 'content-type': 'application/json' }).end('{"reached":true}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function toolFor(node: INode) {
	const { tools } = await loadWorkflowTools(callerWorkflow([node]), { host });
	return tools[0];
}

const call = (id: string, inputs: Record<string, string> = {}, options: object = {}) =>
	executeWorkflowNode('Call', { workflowId: workflowLocator(id), ...options }, inputs);

describe('sub-workflow runs', () => {
	it('runs whole: its own Execute Workflow node calls the next sub-workflow (Outer › Add numbers)', async () => {
		const tool = await toolFor(call('sub-outer'));
		expect(await tool.invoke({}, { toolCallId: 'o1' })).toMatchObject({
			isError: false,
			value: [{ sum: 42, got: JSON.stringify({ a: 40, b: 2 }) }],
		});
	});

	it('a failing sub-workflow: the error names the sub-workflow and its node', async () => {
		const observation = await (await toolFor(call('sub-fail'))).invoke({}, { toolCallId: 'f1' });
		expect(observation.isError).toBe(true);
		expect(observation.content).toBe(
			'Error: node "Call" failed: Sub-workflow "Always fails" failed at node "Stop here": boom from sub-workflow',
		);
	});

	it('a workflow that calls itself: stopped at the depth limit, one SUB_WORKFLOW_DEPTH error (not wrapped per level)', async () => {
		const observation = await (await toolFor(call('sub-loop'))).invoke({}, { toolCallId: 'l1' });
		expect(observation.isError).toBe(true);
		expect(observation.content).toBe(
			'Error: node "Call" failed: Sub-workflow "Calls itself" was not run: workflows calling workflows would go deeper than 10 levels (Caller › Calls itself (×11)). Does a workflow call itself? Give it a condition that ends the recursion.',
		);
		expect(observation.data).toMatchObject({ error: { name: 'SubWorkflowError' } });
	});

	it('a sub-workflow that stops to wait (a long Wait) is SUB_WORKFLOW_WAITING, not a silent empty result', async () => {
		const tool = await toolFor(call('sub-slow', { seconds: '={{ 3600 }}', url: `=${base}/late` }));
		const observation = await tool.invoke({}, { toolCallId: 'w1' });
		expect(observation.content).toBe(
			'Error: node "Call" failed: Sub-workflow "Slow" stopped to wait at node "Wait" (a Wait node, a form or a human review). The standalone host cannot resume a waiting execution.',
		);
	});

	it('"Wait for sub-workflow completion" off: the caller gets its own items back, the sub-workflow has still run', async () => {
		const before = hits.length;
		const tool = await toolFor(
			call(
				'sub-slow',
				{ seconds: '={{ 0 }}', url: `=${base}/detached` },
				{ options: { waitForSubWorkflow: false } },
			),
		);
		const observation = await tool.invoke({}, { toolCallId: 'd1' });
		expect(observation.isError).toBe(false);
		expect(observation.value).toEqual([{ seconds: 0, url: `${base}/detached` }]);
		expect(hits.slice(before)).toEqual(['/detached']);
	});

	it("the call's cancel signal cancels the sub-workflow: its Wait stops, the node after it never runs", async () => {
		const before = hits.length;
		const tool = await toolFor(call('sub-slow', { seconds: '={{ 1 }}', url: `=${base}/after` }));
		const started = Date.now();
		const observation = await tool.invoke(
			{},
			{ toolCallId: 'c1', signal: AbortSignal.timeout(200) },
		);
		expect(Date.now() - started).toBeLessThan(900);
		expect(observation.isError).toBe(true);
		expect(observation.content).toMatch(/cancelled/);
		await new Promise((resolve) => setTimeout(resolve, 1_500));
		expect(hits.slice(before)).toEqual([]);
	});
});

describe("the sub-workflow's result (n8n's buildSubWorkflowOutput)", () => {
	const run = (runs: number[][]) =>
		({
			data: {
				resultData: {
					lastNodeExecuted: 'Last',
					runData: {
						Last: runs.map((values, index) => ({
							executionIndex: index,
							data: { main: [values.map((value) => ({ json: { value } }))] },
						})),
					},
				},
			},
		}) as unknown as IRun;
	const withTrigger = (typeVersion: number, parameters = {}) => ({
		nodes: [
			{
				name: 'T',
				type: 'n8n-nodes-base.executeWorkflowTrigger',
				typeVersion,
				parameters,
			} as INode,
		],
		connections: {},
	});
	const values = (output: ReturnType<typeof subWorkflowOutput>) =>
		output.map((items) => items?.map((item) => item.json.value));

	it('trigger 1.2+: every run of the last node, merged per branch; the caller may ask for the last run only', () => {
		expect(values(subWorkflowOutput(run([[1], [2, 3]]), withTrigger(1.2), false))).toEqual([
			[1, 2, 3],
		]);
		expect(values(subWorkflowOutput(run([[1], [2, 3]]), withTrigger(1.2), true))).toEqual([[2, 3]]);
	});

	it('trigger before 1.2: the last run only, unless it says "all runs"', () => {
		expect(values(subWorkflowOutput(run([[1], [2]]), withTrigger(1.1), false))).toEqual([[2]]);
		expect(
			values(
				subWorkflowOutput(run([[1], [2]]), withTrigger(1, { returnOutput: 'allRuns' }), false),
			),
		).toEqual([[1, 2]]);
	});
});
