import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INode } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentState } from '../../src/agent/agent-state';
import { applyToolResults } from '../../src/agent/apply-tool-results';
import { buildChatRequest } from '../../src/agent/build-chat-request';
import { keepToolImages, withToolImages } from '../../src/agent/tool-images';
import type { ChatMessage } from '../../src/chat/types';
import { runWorkflowAgent } from '../../src/hosts/standalone/run-workflow-agent';
import type { WorkflowExport } from '../../src/hosts/standalone/workflow-file';
import type { ToolAttachment } from '../../src/tools/tool-attachment';
import { AgentOrchestrator } from '../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeRequest,
} from '../support/fake-chat-server';
import { orchestratorType } from '../support/real-tool-nodes';
import { orchestratorNode, runEngineWorkflow } from '../hosts/n8n/engine-workflow';

/** A 1×1 PNG. */
const png =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const dataUrl = `data:image/png;base64,${png}`;
const image = (name: string, bytes = 70): ToolAttachment => ({
	kind: 'image',
	mimeType: 'image/png',
	data: png,
	name,
	bytes,
});

const toolTurn: ChatMessage[] = [
	{ role: 'user', content: 'draw' },
	{
		role: 'assistant',
		content: null,
		tool_calls: [
			{ id: 'c1', type: 'function', function: { name: 'chart', arguments: '{}' } },
			{ id: 'c2', type: 'function', function: { name: 'other', arguments: '{}' } },
		],
	},
	{ role: 'tool', tool_call_id: 'c1', content: 'chart text' },
	{ role: 'tool', tool_call_id: 'c2', content: 'other text' },
];
const kept = [{ toolCallId: 'c1', images: [image('chart.png')] }];

describe('withToolImages: where a tool image goes, per model family and server (the tables)', () => {
	it('OpenAI-style: one user message with the image after the whole tool turn', () => {
		const messages = withToolImages(toolTurn, kept, { model: 'openai/gpt-4o' });
		expect(messages.slice(0, 4)).toEqual(toolTurn);
		expect(messages[4]).toEqual({
			role: 'user',
			content: [
				{ type: 'text', text: 'Images returned by the tool calls above:' },
				{ type: 'text', text: '[image: chart.png from tool call c1]' },
				{ type: 'image_url', image_url: { url: dataUrl } },
			],
		});
		expect(messages).toHaveLength(5);
	});

	it('Anthropic through OpenRouter: inside the tool result; elsewhere (no OpenRouter) after the turn', () => {
		const openRouter = withToolImages(toolTurn, kept, {
			model: 'anthropic/claude-sonnet-4',
			server: 'openrouter',
		});
		expect(openRouter).toHaveLength(4);
		expect(openRouter[2]).toEqual({
			role: 'tool',
			tool_call_id: 'c1',
			content: [
				{ type: 'text', text: 'chart text' },
				{ type: 'text', text: '[image: chart.png]' },
				{ type: 'image_url', image_url: { url: dataUrl } },
			],
		});
		const direct = withToolImages(toolTurn, kept, {
			model: 'claude-sonnet-4',
			server: 'openai-compatible',
		});
		expect(direct).toHaveLength(5);
		expect(direct[4].role).toBe('user');
	});

	it('a model without vision (an unknown family) gets the text only, unless imageInput forces it; imageInput: false turns it off', () => {
		expect(withToolImages(toolTurn, kept, { model: 'llama3:8b' })).toEqual(toolTurn);
		expect(withToolImages(toolTurn, kept, { model: 'llama3:8b', imageInput: true })).toHaveLength(
			5,
		);
		expect(withToolImages(toolTurn, kept, { model: 'gpt-4o', imageInput: false })).toEqual(
			toolTurn,
		);
	});
});

describe('keepToolImages: the state keeps images only for vision models, bounded in total', () => {
	const results = (id: string, attachments: ToolAttachment[]) => [
		{ toolCallId: id, observation: { content: 'x', isError: false, attachments } },
	];

	it('keeps images (never sounds) for a vision model, none for a text model', () => {
		const sound: ToolAttachment = { ...image('a.wav'), kind: 'audio', mimeType: 'audio/wav' };
		expect(
			keepToolImages(undefined, results('c1', [image('a.png'), sound]), { model: 'gpt-4o' }),
		).toEqual([{ toolCallId: 'c1', images: [image('a.png')] }]);
		expect(
			keepToolImages(undefined, results('c1', [image('a.png')]), { model: 'llama3:8b' }),
		).toBeUndefined();
	});

	it('drops the oldest calls first while the total is over the budget', () => {
		const first = keepToolImages(undefined, results('c1', [image('a.png', 600)]), {
			model: 'gpt-4o',
		});
		const second = keepToolImages(
			first,
			results('c2', [image('b.png', 600)]),
			{ model: 'gpt-4o' },
			1000,
		);
		expect(second).toEqual([{ toolCallId: 'c2', images: [image('b.png', 600)] }]);
	});

	it('applyToolResults keeps the images in a plain-JSON state, and the next request carries them', () => {
		const state = {
			version: 1,
			config: {
				model: 'openai/gpt-4o',
				maxIterations: 5,
				limitBehavior: 'error',
				repeatedCallLimit: 3,
				toolChoice: 'auto',
			},
			tools: [{ name: 'chart', description: 'd', parameters: { type: 'object' } }],
			messages: toolTurn.slice(0, 2),
			turnStart: 0,
			steps: [],
			usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
			iterations: 1,
			callCounts: {},
			repeatWarnings: [],
			status: 'awaiting-tools',
			pendingToolCalls: [
				{ toolCallId: 'c1', name: 'chart', arguments: {}, argumentsText: '{}' },
				{ toolCallId: 'c2', name: 'other', arguments: {}, argumentsText: '{}' },
			],
			reasoning: [],
		} as unknown as AgentState;
		const next = applyToolResults(state, [
			{
				toolCallId: 'c1',
				observation: { content: 'chart text', isError: false, attachments: [image('chart.png')] },
				durationMs: 1,
			},
			{ toolCallId: 'c2', observation: { content: 'other text', isError: false }, durationMs: 1 },
		]);
		expect(JSON.parse(JSON.stringify(next))).toEqual(next);
		// The messages stay text: the images live beside them, shown only in the request.
		expect(next.messages).toEqual(toolTurn);
		expect(next.toolImages).toEqual(kept);
		const request = buildChatRequest(next);
		expect(request.messages.at(-1)).toMatchObject({ role: 'user' });
		expect(JSON.stringify(request.messages.at(-1))).toContain(dataUrl);
	});
});

// A real HTTP Request node fetches a PNG from a loopback server; a loopback fake model reads the request.
let pngServer: Server;
let pngBase: string;
beforeAll(async () => {
	pngServer = createServer((_request, response) => {
		response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(png, 'base64'));
	});
	await new Promise<void>((resolve) => pngServer.listen(0, '127.0.0.1', resolve));
	pngBase = `http://127.0.0.1:${(pngServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => pngServer.close(() => resolve())));

const httpNode: INode = {
	id: 'get',
	name: 'Get',
	type: 'n8n-nodes-base.httpRequestTool',
	typeVersion: 4.2,
	position: [0, 200],
	parameters: {
		toolDescription: 'GETs a URL',
		url: "={{ $fromAI('url', 'The URL', 'string') }}",
		options: {},
	},
};

function imageWorkflow(model: string): WorkflowExport {
	const agent: INode = {
		id: 'agent',
		name: 'Agent',
		type: orchestratorType,
		typeVersion: 1,
		position: [0, 0],
		parameters: {
			authentication: 'openAiCompatibleApi',
			model,
			prompt: '={{ $json.chatInput }}',
			options: {},
		},
		credentials: { openAiCompatibleApi: { id: 'm', name: 'Fake model' } },
	};
	return {
		name: 'images',
		nodes: [agent, httpNode],
		connections: { Get: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] } },
	};
}

/** Runs `work` against a fake model that fetches the PNG once, then answers; resolves with the messages of its second request. */
async function messagesAfterTool(
	work: (baseUrl: string) => Promise<unknown>,
): Promise<Array<{ role: string; content: unknown }>> {
	const server = await startFakeChatServer({
		respond: ({ body }: FakeRequest) =>
			(body.messages as Array<{ role: string }>).some((message) => message.role === 'tool')
				? textReply('A 1×1 picture.')
				: toolCallReply([{ id: 'c1', name: 'Get', arguments: { url: `${pngBase}/chart.png` } }]),
	});
	try {
		await work(server.baseUrl);
		expect(server.requests).toHaveLength(2);
		return server.requests[1].body.messages;
	} finally {
		await server.close();
	}
}

const imagePartsIn = (messages: Array<{ role: string; content: unknown }>) =>
	messages.flatMap((message) =>
		Array.isArray(message.content)
			? (message.content as Array<{ type: string; image_url?: { url: string } }>)
					.filter((part) => part.type === 'image_url')
					.map((part) => ({ role: message.role, url: part.image_url?.url }))
			: [],
	);

describe('a real node returns a PNG: a vision model receives it as an image part', () => {
	const ownNodeTypes = { [orchestratorType]: () => new AgentOrchestrator() };
	const standalone = (model: string) => (baseUrl: string) =>
		runWorkflowAgent(imageWorkflow(model), {
			prompt: 'fetch the chart',
			credentials: { 'Fake model': { url: baseUrl } },
			env: {},
			nodeTypes: ownNodeTypes,
		});

	it('standalone host (runWorkflowAgent): image_url after the tool turn; the tool message keeps its text line', async () => {
		const messages = await messagesAfterTool(standalone('openai/gpt-4o'));
		expect(imagePartsIn(messages)).toEqual([{ role: 'user', url: dataUrl }]);
		const tool = messages.find((message) => message.role === 'tool');
		expect(tool?.content).toMatch(/binary data only.*image\/png/);
		expect(messages.at(-1)?.role).toBe('user');
	}, 30_000);

	it('standalone host, a model without vision: the text line only, as before', async () => {
		const messages = await messagesAfterTool(standalone('fake/model'));
		expect(imagePartsIn(messages)).toEqual([]);
		expect(messages.at(-1)?.role).toBe('tool');
	}, 30_000);

	it('inside n8n, engine driver (WorkflowExecute): the tool node run’s PNG reaches the model', async () => {
		const messages = await messagesAfterTool((baseUrl) =>
			runEngineWorkflow({
				agent: orchestratorNode('Agent', {
					model: 'openai/gpt-4o',
					prompt: '={{ $json.chatInput }}',
					options: { toolExecution: 'engine' },
				}),
				tools: [httpNode],
				items: [{ chatInput: 'fetch the chart' }],
				credentials: { 'Fake model': { apiKey: 'unused-key', url: baseUrl } },
				nodeTypes: { [orchestratorType]: new AgentOrchestrator() },
			}),
		);
		expect(imagePartsIn(messages)).toEqual([{ role: 'user', url: dataUrl }]);
	}, 30_000);

	it('inside n8n, in-process: n8n-core’s tool wrapper drops binary before the orchestrator sees it (n8n #38357): no image', async () => {
		const messages = await messagesAfterTool((baseUrl) =>
			runEngineWorkflow({
				agent: orchestratorNode('Agent', {
					model: 'openai/gpt-4o',
					prompt: '={{ $json.chatInput }}',
					options: { toolExecution: 'inProcess' },
				}),
				tools: [httpNode],
				items: [{ chatInput: 'fetch the chart' }],
				credentials: { 'Fake model': { apiKey: 'unused-key', url: baseUrl } },
				nodeTypes: { [orchestratorType]: new AgentOrchestrator() },
			}),
		);
		expect(imagePartsIn(messages)).toEqual([]);
		// What n8n's wrapper hands over: the items' json (here the node's input echoed), no file.
		const tool = messages.find((message) => message.role === 'tool');
		expect(tool?.content).not.toContain(png);
		expect(tool?.content).not.toContain('image/png');
	}, 30_000);
});
