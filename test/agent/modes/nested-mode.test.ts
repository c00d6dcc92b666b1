import { createHash } from 'node:crypto';
import type { DynamicStructuredTool } from '@langchain/core/tools';
import { NodeHelpers, Workflow, type INodeType } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { AgentOrchestrator } from '../../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import { isNestedAgentNode, nestedAgentToolSpec } from '../../../src/tools/nested-agent-tool-spec';
import { loadWorkflowTools } from '../../../src/hosts/standalone/load-workflow-tools';
import {
	errorReply,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeRequest,
	type FakeReply,
} from '../../support/fake-chat-server';
import { fakeChatServerPerTest } from '../../support/fake-chat-server-hooks';
import { agentWorkflow, hashTextToolNode } from '../../support/real-tool-nodes';
import { fakeNodeContext } from './fake-node-context';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const cryptoWorkflow = agentWorkflow('Researcher', { mode: 'nested' }, [hashTextToolNode()]);

let cryptoTools: DynamicStructuredTool[];
beforeAll(async () => {
	cryptoTools = (await loadWorkflowTools(cryptoWorkflow)).langChainTools;
});

const serve = fakeChatServerPerTest();

/** Each agent uses its own model id, so the fake answers per agent (`respond[model](request, nth call of that agent)`). */
async function start(
	respond: Record<string, (request: FakeRequest, call: number) => FakeReply | Promise<FakeReply>>,
): Promise<FakeChatServer> {
	const calls: Record<string, number> = {};
	return serve((request) => {
		const model = request.body.model as string;
		calls[model] = (calls[model] ?? 0) + 1;
		return respond[model](request, calls[model]);
	});
}

const lastToolResults = (request: FakeRequest): string[] =>
	(request.body.messages as Array<{ role: string; content: string }>)
		.filter((message) => message.role === 'tool')
		.map((message) => message.content);

/** A nested AgentOrchestrator's tool, supplied through the node's real supplyData. */
async function nestedTool(
	name: string,
	baseUrl: string,
	parameters: Json,
	tools: unknown[] | (() => Promise<unknown[]>) = [],
) {
	const { supply, logged } = fakeNodeContext({
		name,
		baseUrl,
		parameters: {
			mode: 'nested',
			prompt: "={{ $fromAI('task', 'The task for this agent', 'string') }}",
			maxDepth: 5,
			...parameters,
		},
		tools,
	});
	const supplied = await new AgentOrchestrator().supplyData.call(supply, 0);
	return { tool: supplied.response as DynamicStructuredTool, logged };
}

function runParent(baseUrl: string, tools: unknown[], options: Json = {}, signal?: AbortSignal) {
	const { execute } = fakeNodeContext({
		name: 'Parent',
		baseUrl,
		parameters: {
			mode: 'full',
			model: 'parent',
			prompt: 'Research and write',
			options: { returnIntermediateSteps: true, debugLog: true, ...options },
		},
		tools,
		signal,
	});
	return new AgentOrchestrator().execute.call(execute) as Promise<Array<Array<{ json: Json }>>>;
}

describe('nested mode', () => {
	it('computes the outputs from the mode: ai_tool when nested, main otherwise', () => {
		const nodeType = new AgentOrchestrator() as unknown as INodeType;
		const nodeTypes = {
			getByName: () => nodeType,
			getByNameAndVersion: () => nodeType,
			getKnownTypes: () => ({}),
		};
		const outputsFor = (mode: string) => {
			const node = {
				id: '1',
				name: 'A',
				type: 'n8n-nodes-toolbridge.agentOrchestrator',
				typeVersion: 1,
				position: [0, 0] as [number, number],
				parameters: { mode },
			};
			const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
			return NodeHelpers.getNodeOutputs(workflow, workflow.getNode('A')!, nodeType.description);
		};
		expect(outputsFor('nested')).toEqual([{ type: 'ai_tool', displayName: 'Tool' }]);
		expect(outputsFor('full')).toEqual([{ type: 'main' }]);
		expect(outputsFor('validator')).toEqual([{ type: 'main' }]);
	});

	it('builds the tool from the node alone (n8n tool name, description, $fromAI schema) for hosts and the CLI', () => {
		const node = {
			name: 'Web Search: Agent',
			type: 'n8n-nodes-toolbridge.agentOrchestrator',
			parameters: { mode: 'nested', toolDescription: 'Searches the web' },
		};
		expect(isNestedAgentNode(node)).toBe(true);
		const spec = nestedAgentToolSpec(node);
		expect(spec).toMatchObject({
			name: 'Web_Search_Agent',
			description: 'Searches the web',
			sourceNodeName: 'Web Search: Agent',
		});
		expect(spec.parameters).toEqual({
			$schema: 'http://json-schema.org/draft-07/schema#',
			type: 'object',
			properties: { task: { type: 'string', description: 'The task for this agent' } },
			required: ['task'],
			additionalProperties: false,
		});
		expect(() =>
			nestedAgentToolSpec({ name: 'Bad', parameters: { prompt: "={{ $fromAI('a b') }}" } }),
		).toThrow(/Node "Bad"/);
	});

	it('runs a parent with two nested children (one with a real Crypto tool): plain-text answers, usage roll-up, prefixed debug lines', async () => {
		const digest = createHash('sha256').update('toolbridge').digest('hex');
		const fake = await start({
			parent: (request, call) => {
				if (call === 1) {
					return toolCallReply([
						{ id: 'p1', name: 'Researcher', arguments: { task: 'hash toolbridge' } },
						{ id: 'p2', name: 'Writer', arguments: { task: 'write a title' } },
					]);
				}
				return textReply(lastToolResults(request).join(' | '));
			},
			researcher: (request, call) => {
				if (call === 1)
					return toolCallReply([
						{
							id: 'r1',
							name: 'Hash_text',
							arguments: { text: request.body.messages.at(-1).content.split(' ')[1] },
						},
					]);
				return textReply(`digest ${JSON.parse(lastToolResults(request)[0])[0].sha256}`);
			},
			writer: () => textReply('A "quoted" title'),
		});
		const researcher = await nestedTool(
			'Researcher',
			fake.baseUrl,
			{ model: 'researcher', toolDescription: 'Researches', options: { debugLog: true } },
			cryptoTools,
		);
		const writer = await nestedTool('Writer', fake.baseUrl, {
			model: 'writer',
			toolDescription: 'Writes',
		});
		const [[item]] = await runParent(fake.baseUrl, [researcher.tool, writer.tool]);

		// The parent's model got real schemas and plain-text answers (not JSON-encoded).
		const tools = fake.requests[0].body.tools as Array<{
			function: { name: string; description: string; parameters: Json };
		}>;
		expect(
			tools.map((tool) => [
				tool.function.name,
				tool.function.description,
				tool.function.parameters.properties.task.type,
			]),
		).toEqual([
			['Researcher', 'Researches', 'string'],
			['Writer', 'Writes', 'string'],
		]);
		expect(item.json.output).toBe(`digest ${digest} | A "quoted" title`);
		expect(item.json.steps.map((step: Json) => [step.tool, step.isError, step.result])).toEqual([
			['Researcher', false, `digest ${digest}`],
			['Writer', false, 'A "quoted" title'],
		]);
		// The child's prompt is the task the parent's model gave.
		const researcherFirst = fake.requests.find((request) => request.body.model === 'researcher')!;
		expect(researcherFirst.body.messages.at(-1)).toEqual({
			role: 'user',
			content: 'hash toolbridge',
		});

		// Usage: the parent's output carries every model call of the tree (5 calls).
		expect(fake.requests).toHaveLength(5);
		expect(item.json.usage.promptTokens).toBe(12 * 5);
		expect(item.json.usage.cost).toBeCloseTo(0.000042 * 5, 10);

		// Debug lines of the child appear in the parent's log, prefixed with the agent path.
		const debugLog = item.json.debugLog as string[];
		expect(debugLog).toContain('[DEBUG] [Parent › Researcher] Iteration 1/20');
		expect(
			debugLog.some((line) =>
				line.startsWith(
					'[DEBUG] [Parent › Researcher] Executing tool: Hash_text with args: {"text":"toolbridge"}',
				),
			),
		).toBe(true);
		expect(debugLog.some((line) => line.startsWith('[DEBUG] Executing tool: Researcher'))).toBe(
			true,
		);
		// Each nested call is logged as a run of the child node (n8n's execution view).
		expect(researcher.logged.map((entry) => entry.kind)).toEqual(['input', 'output']);
		expect(researcher.logged[1].data).toEqual([[{ json: { response: `digest ${digest}` } }]]);
	});

	it("a child that fails still rolls up the tokens it spent; the parent's model reads the failure", async () => {
		const fake = await start({
			parent: (request, call) =>
				call === 1
					? toolCallReply([{ id: 'p', name: 'Researcher', arguments: { task: 'go' } }])
					: textReply(`saw: ${lastToolResults(request)[0]}`),
			// One answered call (a tool that does not exist), then the provider refuses the next.
			researcher: (_request, call) =>
				call === 1
					? toolCallReply([{ id: 'r', name: 'Missing', arguments: {} }])
					: errorReply(400, 'context too long'),
		});
		const researcher = await nestedTool('Researcher', fake.baseUrl, {
			model: 'researcher',
			toolDescription: 'Researches',
		});
		const [[item]] = await runParent(fake.baseUrl, [researcher.tool]);
		expect(item.json.steps.map((step: Json) => [step.tool, step.isError])).toEqual([
			['Researcher', true],
		]);
		expect(item.json.output).toMatch(/^saw: .*context too long/);
		// Parent: 2 calls; child: 1 answered call, whose tokens count, and 1 refused.
		expect(fake.requests).toHaveLength(4);
		expect(item.json.usage.promptTokens).toBe(12 * 3);
	});

	it('called through LangChain (as n8n\'s AI Agent calls it) with "20" for a number: coerced, not refused by the schema check', async () => {
		const fake = await start({
			writer: (request) => textReply(`prompt was: ${request.body.messages.at(-1).content}`),
		});
		const writer = await nestedTool('Writer', fake.baseUrl, {
			model: 'writer',
			prompt: "={{ $fromAI('words', 'Maximum words', 'number') }}",
		});
		expect(await writer.tool.invoke({ words: '20' })).toBe('prompt was: 20');
		const message = await writer.tool.invoke({
			type: 'tool_call',
			id: 'call_1',
			name: 'Writer',
			args: { words: '20' },
		});
		expect(message).toMatchObject({ tool_call_id: 'call_1', content: 'prompt was: 20' });
		// What cannot be coerced fails, before any model call, with the text naming the field.
		await expect(writer.tool.invoke({ words: 'twenty' })).rejects.toThrow(
			/invalid arguments for tool "Writer":\n- "words": expected a number, received the string "twenty"/,
		);
		expect(fake.requests).toHaveLength(2);
	});

	it('stops a chain deeper than Max Depth with a clear error the calling model reads', async () => {
		const fake = await start({
			parent: (request, call) =>
				call === 1
					? toolCallReply([{ id: 'p', name: 'A', arguments: { task: 'go' } }])
					: textReply(lastToolResults(request)[0]),
			a: (request, call) =>
				call === 1
					? toolCallReply([{ id: 'a', name: 'B', arguments: { task: 'deeper' } }])
					: textReply(lastToolResults(request)[0]),
			b: () => textReply('B should never run'),
		});
		const b = await nestedTool('B', fake.baseUrl, { model: 'b', toolDescription: 'B' });
		const a = await nestedTool(
			'A',
			fake.baseUrl,
			{ model: 'a', toolDescription: 'A', maxDepth: 2 },
			[b.tool],
		);
		const [[item]] = await runParent(fake.baseUrl, [a.tool]);
		expect(item.json.output).toMatch(
			/^Error: Agent nesting too deep: Parent › A › B is 3 agents deep and the limit is 2/,
		);
		expect(fake.requests.map((request) => request.body.model)).toEqual([
			'parent',
			'a',
			'a',
			'parent',
		]);
	});

	it('detects an agent that calls itself through the chain', async () => {
		const fake = await start({
			parent: (request, call) =>
				call === 1
					? toolCallReply([{ id: 'p', name: 'Loop', arguments: { task: 'go' } }])
					: textReply(lastToolResults(request)[0]),
			loop: (request, call) =>
				call === 1
					? toolCallReply([{ id: 'l', name: 'Loop', arguments: { task: 'again' } }])
					: textReply(lastToolResults(request)[0]),
		});
		// The node is connected to its own Tools input (a loop in the workflow).
		const self: { tool?: DynamicStructuredTool } = {};
		const loop = await nestedTool(
			'Loop',
			fake.baseUrl,
			{ model: 'loop', toolDescription: 'Loops' },
			async () => [self.tool],
		);
		self.tool = loop.tool;
		const [[item]] = await runParent(fake.baseUrl, [loop.tool]);
		expect(item.json.output).toMatch(
			/^Error: Agent cycle: Parent › Loop › Loop\. "Loop" is already running further up this chain/,
		);
	});

	it("passes the parent's abort to the child's model call", async () => {
		const controller = new AbortController();
		const fake = await start({
			parent: () =>
				toolCallReply([{ id: 'p', name: 'Slow', arguments: { task: 'take your time' } }]),
			slow: () => {
				setTimeout(() => controller.abort(), 20);
				return { ...textReply('never finished'), stallAfterChunks: 1 };
			},
		});
		// The child's own context has no cancel signal: the abort can only reach it through the parent.
		const slow = await nestedTool('Slow', fake.baseUrl, { model: 'slow', toolDescription: 'Slow' });
		const error = await runParent(fake.baseUrl, [slow.tool], {}, controller.signal).catch(
			(caught: unknown) => caught,
		);
		expect((error as Error).message).toMatch(/aborted/);
		const childRequest = fake.requests.find((request) => request.body.model === 'slow')!;
		await childRequest.closed;
		expect(slow.logged.map((entry) => entry.kind)).toEqual(['input', 'output']);
		expect(fake.requests).toHaveLength(2);
	});
});
