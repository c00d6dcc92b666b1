/**
 * The real Agent Orchestrator node (its own execute dispatch, credential, settings) in a
 * workflow run by n8n-core's WorkflowExecute, with real n8n-nodes-base tool nodes (Crypto,
 * Date & Time) and a human-review gate built by n8n-core's own HITL code. Only the model is
 * a loopback fake, and it checks the tool schemas it receives.
 */
import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, INode, INodeType, ITaskData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import type { AgentStep } from '../../../src/agent/agent-state';
import { textReply, toolCallReply, type FakeRequest } from '../../support/fake-chat-server';
import { fakeChatServerForFile } from '../../support/fake-chat-server-hooks';
import { formatDateToolNode, hashTextToolNode } from '../../support/real-tool-nodes';
import { fakeModelCredentials, orchestratorNode, runEngineWorkflow } from './engine-workflow';
import { recordingAgent } from '../../support/recording-agent';

const apiKey = 'sk-engine-0123456789abcdef0123456789abcdef';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

type Message = { role: string; content: string | null; tool_calls?: unknown[] };
type ToolDefinition = {
	function: {
		name: string;
		parameters: {
			properties: Record<string, { type?: string; properties?: Record<string, { type?: string }> }>;
		};
	};
};

/** How the fake model answers, per test. */
let respond: (request: FakeRequest) => ReturnType<typeof textReply>;
const server = fakeChatServerForFile({ respond: (request) => respond(request) });

function agentNode(options: IDataObject = {}): INode {
	return orchestratorNode('Agent', {
		model: 'fake/model',
		prompt: '={{ $json.chatInput }}',
		options: { returnIntermediateSteps: true, debugLog: true, ...options },
	});
}

const hashNode = hashTextToolNode();
const dateNode = formatDateToolNode();

async function run(options: {
	agentOptions?: IDataObject;
	items: IDataObject[];
	tools?: INode[];
	gatedTools?: Array<{ node: INode; gate: string }>;
	nodeTypes?: Record<string, INodeType>;
}) {
	const requests: string[] = [];
	const result = await runEngineWorkflow({
		agent: agentNode(options.agentOptions),
		tools: options.tools ?? [hashNode, dateNode],
		gatedTools: options.gatedTools,
		items: options.items,
		nodeTypes: {
			'n8n-nodes-toolbridge.agentOrchestrator': recordingAgent(requests),
			...options.nodeTypes,
		},
		credentials: fakeModelCredentials(apiKey, server.baseUrl),
	});
	return { ...result, requests, runData: result.run.data.resultData.runData };
}

/** The fake model for the Crypto/Date scenario: hash the user's text and format a date, then report. */
function hashAndDateModel({ body }: FakeRequest) {
	const messages = body.messages as Message[];
	const results = messages.filter((message) => message.role === 'tool');
	const user = messages.find((message) => message.role === 'user')?.content ?? '';
	if (results.length > 0)
		return textReply(`done: ${results.map((result) => result.content).join(' | ')}`);
	const hash = (body.tools as ToolDefinition[]).find((tool) => tool.function.name === 'Hash_text');
	if (hash?.function.parameters.properties.text?.type !== 'string')
		return textReply('SCHEMA MISSING');
	if (user === 'bad date')
		return toolCallReply([
			{ id: 'bad1', name: 'Format_date', arguments: { date: 'the day after never' } },
		]);
	return toolCallReply([
		{ id: 'h1', name: 'Hash_text', arguments: { text: user } },
		{ id: 'd1', name: 'Format_date', arguments: { date: '2024-02-29T10:00:00Z' } },
	]);
}

describe('engine driver in WorkflowExecute with real n8n-nodes-base tools', () => {
	it('sends the calls of all items in one EngineRequest; each call is its own node run; output equals in-process', async () => {
		respond = hashAndDateModel;
		const engine = await run({ items: [{ chatInput: 'toolbridge' }, { chatInput: 'n8n' }] });

		expect(engine.output.map((item) => item.json.output)).toEqual([
			expect.stringContaining(sha256('toolbridge')),
			expect.stringContaining(sha256('n8n')),
		]);
		expect(engine.output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		// One request with the 4 calls of both items; then the node was resumed once.
		expect(engine.requests).toHaveLength(1);
		const request = JSON.parse(engine.requests[0]) as {
			actions: Array<{
				id: string;
				nodeName: string;
				input: IDataObject;
				type: string;
				metadata: IDataObject;
			}>;
			metadata: IDataObject;
		};
		expect(
			request.actions.map((action) => [action.nodeName, action.type, action.metadata.itemIndex]),
		).toEqual([
			['Hash text', 'ai_tool', 0],
			['Format date', 'ai_tool', 0],
			['Hash text', 'ai_tool', 1],
			['Format date', 'ai_tool', 1],
		]);
		expect(new Set(request.actions.map((action) => action.id)).size).toBe(4);
		expect(request.actions[2].input).toEqual({ text: 'n8n' });
		expect(engine.requests[0]).not.toContain(apiKey);

		// n8n's run log: every call is a run of its node, input = the model's arguments, output on ai_tool.
		const hashRuns = engine.runData['Hash text'] as ITaskData[];
		expect(hashRuns).toHaveLength(2);
		expect(hashRuns.map((task) => task.inputOverride?.ai_tool?.[0]?.[0]?.json)).toEqual([
			{ text: 'toolbridge' },
			{ text: 'n8n' },
		]);
		expect(hashRuns.map((task) => task.data?.ai_tool?.[0]?.[0]?.json.sha256)).toEqual([
			sha256('toolbridge'),
			sha256('n8n'),
		]);
		expect(hashRuns.every((task) => task.source[0]?.previousNode === 'Agent')).toBe(true);
		expect(engine.runData['Format date']).toHaveLength(2);

		const debugLog = engine.output[0].json.debugLog as string[];
		expect(debugLog).toContain('[DEBUG] Engine action h1: run node "Hash text" for tool Hash_text');
		expect(debugLog).toContain(
			'[DEBUG] Engine re-entry 1: 2 action result(s) for this item (4 in the response)',
		);
		expect(
			debugLog.some((line) =>
				line.startsWith('[DEBUG] Engine action h1: node "Hash text" succeeded'),
			),
		).toBe(true);

		const inProcess = await run({
			items: [{ chatInput: 'toolbridge' }, { chatInput: 'n8n' }],
			agentOptions: { toolExecution: 'inProcess' },
		});
		expect(inProcess.requests).toHaveLength(0);
		const comparable = (output: typeof engine.output) =>
			output.map((item) => ({
				output: item.json.output,
				iterations: item.json.iterations,
				steps: (item.json.steps as unknown as AgentStep[]).map((step) => [
					step.tool,
					step.arguments,
					step.result,
					step.isError,
				]),
			}));
		expect(comparable(engine.output)).toEqual(comparable(inProcess.output));
	});

	it('hands a real node error to the model as an observation, the same as in-process', async () => {
		respond = hashAndDateModel;
		const engine = await run({ items: [{ chatInput: 'bad date' }] });
		const inProcess = await run({
			items: [{ chatInput: 'bad date' }],
			agentOptions: { toolExecution: 'inProcess' },
		});
		const [step] = engine.output[0].json.steps as unknown as AgentStep[];
		expect(step).toMatchObject({ tool: 'Format_date', isError: true });
		expect(step.result).toMatch(/^Error: /);
		expect(step.result).toBe((inProcess.output[0].json.steps as unknown as AgentStep[])[0].result);
		expect((engine.runData['Format date'] as ITaskData[])[0].error).toBeDefined();
	});
});

/** A human-review gate: n8n-core turns any `…HitlTool` type into a gate over the tools connected to it. */
function reviewGateType(decision: () => IDataObject, seen: IDataObject[]): INodeType {
	return {
		description: {
			displayName: 'Review',
			name: 'reviewHitlTool',
			group: ['transform'],
			version: 1,
			description: 'Test review gate',
			defaults: { name: 'Review' },
			inputs: [NodeConnectionTypes.AiTool],
			outputs: [NodeConnectionTypes.AiTool],
			properties: [{ displayName: 'Message', name: 'message', type: 'string', default: '' }],
		},
		async execute(this: IExecuteFunctions) {
			seen.push({ ...this.getInputData()[0].json, message: this.getNodeParameter('message', 0) });
			return [[{ json: decision() }]];
		},
	};
}

describe('human review (…HitlTool gate) through engine requests', () => {
	const reviewNode: INode = {
		id: 'review',
		name: 'Review',
		type: 'toolbridgeTest.reviewHitlTool',
		typeVersion: 1,
		position: [0, 200],
		parameters: { message: "={{ $fromAI('message', 'A note for the reviewer', 'string') }}" },
	};
	let lastToolMessage = '';
	const gatedModel = ({ body }: FakeRequest) => {
		const messages = body.messages as Message[];
		const result = messages.find((message) => message.role === 'tool');
		if (result) {
			lastToolMessage = String(result.content);
			return textReply(`model saw: ${result.content}`);
		}
		const tool = (body.tools as ToolDefinition[]).find(
			(candidate) => candidate.function.name === 'Hash_text',
		);
		const properties = tool?.function.parameters.properties;
		if (
			properties?.toolParameters?.properties?.text?.type !== 'string' ||
			properties.hitlParameters?.properties?.message?.type !== 'string'
		) {
			return textReply('SCHEMA MISSING');
		}
		return toolCallReply([
			{
				id: 'g1',
				name: 'Hash_text',
				arguments: {
					toolParameters: { text: 'launch plan' },
					hitlParameters: { message: 'ok to hash?' },
				},
			},
		]);
	};

	it.each([
		['approves: the gated tool runs and the model sees its result', { data: { approved: true } }],
		[
			'declines with a reason: the model is told, the tool never runs',
			{ data: { approved: false, text: 'not this text' } },
		],
	])('%s', async (label, decision) => {
		respond = gatedModel;
		const seen: IDataObject[] = [];
		const engine = await run({
			items: [{ chatInput: 'hash it' }],
			tools: [reviewNode],
			gatedTools: [{ node: hashNode, gate: 'Review' }],
			nodeTypes: { 'toolbridgeTest.reviewHitlTool': reviewGateType(() => decision, seen) },
		});
		// The review node got the hitl parameters flattened and the tool parameters for display.
		expect(seen).toEqual([
			expect.objectContaining({ message: 'ok to hash?', toolParameters: { text: 'launch plan' } }),
		]);
		if (label.startsWith('approves')) {
			expect(engine.requests).toHaveLength(2);
			expect(lastToolMessage).toContain(sha256('launch plan'));
			expect(engine.runData['Hash text']).toHaveLength(1);
			expect(engine.output[0].json.steps).toMatchObject([{ tool: 'Hash_text', isError: false }]);
		} else {
			expect(engine.requests).toHaveLength(1);
			expect(lastToolMessage).toMatch(
				/declined it, so the tool was not run\. Their feedback: "not this text"/,
			);
			expect(engine.runData['Hash text']).toBeUndefined();
			expect(engine.output[0].json.steps).toMatchObject([{ tool: 'Hash_text', isError: true }]);
		}
	});

	it('in-process: a gated tool is not silently run; the model is told review needs the engine', async () => {
		respond = gatedModel;
		const seen: IDataObject[] = [];
		const inProcess = await run({
			items: [{ chatInput: 'hash it' }],
			agentOptions: { toolExecution: 'inProcess' },
			tools: [reviewNode],
			gatedTools: [{ node: hashNode, gate: 'Review' }],
			nodeTypes: {
				'toolbridgeTest.reviewHitlTool': reviewGateType(() => ({ data: { approved: true } }), seen),
			},
		});
		expect(seen).toEqual([]);
		expect(lastToolMessage).toMatch(
			/^Error: tool 'Hash_text' needs human review \(node "Review"\), which only works when n8n's engine runs the tool calls/,
		);
		expect(inProcess.output[0].json.output).toContain('needs human review');
	});
});
