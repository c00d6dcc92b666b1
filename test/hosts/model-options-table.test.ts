/**
 * The model-options table, end to end: every row of `modelOptionParameters` (the n8n
 * parameters both nodes show) set at once, in every mode (full, validator, nested) and every
 * host (the node inside n8n through its test contexts, the chat-model sub-node on both of its
 * paths, and the standalone host through runWorkflowAgent), must reach the wire — on
 * OpenRouter with OpenRouter's own fields, on any other OpenAI-compatible server without them.
 * OpenRouter is reached by its real URL: the global fetch sends openrouter.ai to the loopback
 * fake, so the client's server detection runs as in production.
 */
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { INode } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentOrchestrator } from '../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import { ToolbridgeChatModel } from '../../nodes/ToolbridgeChatModel/ToolbridgeChatModel.node';
import { modelOptionKeys } from '../../src/agent/model-options';
import { toolbridgeNativeModelOf } from '../../src/hosts/n8n/chat-model/toolbridge-native-model';
import {
	modelOptionParameters,
	type ModelOptionParameter,
	type ModelOptionParameterName,
} from '../../src/node-settings/model-option-parameters';
import { readAgentNodeSettings } from '../../src/hosts/n8n/item-run/read-agent-node-settings';
import { runWorkflowAgent } from '../../src/hosts/standalone/run-workflow-agent';
import { readOrchestratorSettings } from '../../src/hosts/standalone/workflow/read-orchestrator-settings';
import type { WorkflowExport } from '../../src/hosts/standalone/workflow-file';
import { fakeNodeContext } from '../agent/modes/fake-node-context';
import { textReply, toolCallReply, type FakeRequest } from '../support/fake-chat-server';
import { fakeChatServerPerTest } from '../support/fake-chat-server-hooks';
import { executeOrchestrator, orchestratorContext } from '../support/orchestrator-context';
import { agentWorkflow, hashTextToolNode, orchestratorType } from '../support/real-tool-nodes';
import { chatModelContext } from './n8n/chat-model/chat-model-context';

const openRouterUrl = 'https://openrouter.ai/api/v1';
/** A family whose prompt caching needs breakpoints, so "Prompt Caching" shows on the wire. */
const model = 'anthropic/claude-sonnet-4';
const fallback = 'openai/gpt-4o-mini';
const apiKey = 'sk-or-v1-table-test-0123456789abcdef';
type Server = 'openrouter' | 'openai-compatible';

/** Every model option of the table, set (as n8n hands the values over). */
const everyOption: Record<ModelOptionParameterName, string | number | boolean> = {
	promptCaching: true,
	fallbackModels: fallback,
	providerOrder: 'anthropic, amazon-bedrock',
	providerOnly: 'anthropic',
	providerIgnore: 'deepinfra',
	providerSort: 'price',
	allowFallbacks: false,
	requireParameters: true,
	dataCollection: 'deny',
	maxPricePrompt: 3,
	maxPriceCompletion: 15,
	temperature: 0.3,
	maxTokens: 300,
	topP: 0.9,
	topK: 40,
	frequencyPenalty: 0.5,
	presencePenalty: -0.5,
	seed: 7,
	stopSequences: 'END',
	reasoningEffort: 'low',
	providerOptions: '{"transforms":["middle-out"]}',
	extraHeaders: '{"X-Table-Test":"yes"}',
	timeout: 200,
	firstTokenTimeout: 50,
	stallTimeout: 40,
};

/** The options that set the connection's time limits: nothing on the wire, checked on the connection. */
const connectionOnly = ['timeout', 'firstTokenTimeout', 'stallTimeout'] as const;
type WireOption = Exclude<ModelOptionParameterName, (typeof connectionOnly)[number]>;

const openRouterOnly =
	(server: Server, field: string, value: unknown) => (request: FakeRequest) => {
		if (server === 'openrouter') expect(request.body[field]).toEqual(value);
		else expect(request.body).not.toHaveProperty(field);
	};
const providerField = (name: string, value: unknown) => (request: FakeRequest, server: Server) => {
	if (server === 'openrouter') expect(request.body.provider[name]).toEqual(value);
	else expect(request.body).not.toHaveProperty('provider');
};
const bodyField = (name: string, value: unknown) => (request: FakeRequest) =>
	expect(request.body[name]).toEqual(value);

/** Where each option must show in the first request the option's node sends; a new row does not compile until it is here. */
const onTheWire: Record<WireOption, (request: FakeRequest, server: Server) => void> = {
	promptCaching: (request, server) =>
		expect(JSON.stringify(request.body.messages).includes('"cache_control"')).toBe(
			server === 'openrouter',
		),
	fallbackModels: (request, server) => openRouterOnly(server, 'models', [model, fallback])(request),
	providerOrder: providerField('order', ['anthropic', 'amazon-bedrock']),
	providerOnly: providerField('only', ['anthropic']),
	providerIgnore: providerField('ignore', ['deepinfra']),
	providerSort: providerField('sort', 'price'),
	allowFallbacks: providerField('allow_fallbacks', false),
	requireParameters: providerField('require_parameters', true),
	dataCollection: providerField('data_collection', 'deny'),
	maxPricePrompt: providerField('max_price', { prompt: 3, completion: 15 }),
	maxPriceCompletion: providerField('max_price', { prompt: 3, completion: 15 }),
	temperature: bodyField('temperature', 0.3),
	maxTokens: bodyField('max_tokens', 300),
	topP: bodyField('top_p', 0.9),
	topK: bodyField('top_k', 40),
	frequencyPenalty: bodyField('frequency_penalty', 0.5),
	presencePenalty: bodyField('presence_penalty', -0.5),
	seed: bodyField('seed', 7),
	stopSequences: bodyField('stop', ['END']),
	reasoningEffort: (request, server) => {
		if (server === 'openrouter') {
			expect(request.body.reasoning).toEqual({ effort: 'low' });
			expect(request.body).not.toHaveProperty('reasoning_effort');
		} else {
			expect(request.body.reasoning_effort).toBe('low');
			expect(request.body).not.toHaveProperty('reasoning');
		}
	},
	providerOptions: bodyField('transforms', ['middle-out']),
	extraHeaders: (request) => expect(request.headers['x-table-test']).toBe('yes'),
};

/** Checks the first request of `forModel` against every row of the table. */
function expectEveryOption(requests: FakeRequest[], server: Server, forModel = model): void {
	const request = requests.find((candidate) => candidate.body.model === forModel);
	expect(request, `no request for ${forModel}`).toBeDefined();
	for (const [option, check] of Object.entries(onTheWire)) {
		try {
			check(request!, server);
		} catch (error) {
			throw new Error(`option "${option}" (${server}): ${(error as Error).message}`);
		}
	}
	if (server === 'openai-compatible')
		expect(JSON.stringify(request!.body)).not.toMatch(/"(models|provider|cache_control)"/);
}

const start = fakeChatServerPerTest();

/** The fake: calls the first offered tool (arguments from its schema) until a tool result is in, then answers. */
async function fakeServer(server: Server) {
	const fake = await start(({ body }) => {
		const answered = (body.messages as Array<{ role: string }>).some(
			(message) => message.role === 'tool',
		);
		const tool = body.tools?.[0]?.function;
		if (!tool || answered) return textReply('done');
		const properties = Object.keys(tool.parameters?.properties ?? {});
		const args = Object.fromEntries(properties.map((name) => [name, 'abc']));
		return toolCallReply([{ id: `call_${tool.name}`, name: tool.name, arguments: args }]);
	});
	if (server === 'openrouter') {
		const realFetch = globalThis.fetch;
		vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) =>
			realFetch(String(input).replace(openRouterUrl, fake.baseUrl), init),
		);
	}
	return { fake, baseUrl: server === 'openrouter' ? openRouterUrl : fake.baseUrl };
}

afterEach(() => {
	vi.unstubAllGlobals();
});

const upperTool = () =>
	new DynamicStructuredTool({
		name: 'upper',
		description: 'Upper-cases a text',
		schema: z.object({ text: z.string() }),
		func: async ({ text }) => text.toUpperCase(),
		metadata: { sourceNodeName: 'Upper' },
	});

/** The orchestrator's options: every model option, and a system message (where caching puts its breakpoint). */
const orchestratorOptions: Record<string, string | number | boolean> = {
	...everyOption,
	systemMessage: 'Be brief.',
};

/** The Toolbridge Chat Model sub-node with every model option, supplied through its real supplyData. */
async function suppliedChatModel(baseUrl: string): Promise<BaseChatModel> {
	const { context } = chatModelContext({
		baseUrl,
		parameters: { model: { __rl: true, mode: 'id', value: model }, options: everyOption },
	});
	return (await new ToolbridgeChatModel().supplyData.call(context, 0)).response as BaseChatModel;
}

/** A workflow with a parent orchestrator (full mode) and, as its tool, a nested one with every option. */
function nestedWorkflow(): WorkflowExport {
	const child = agentWorkflow(
		'Child',
		{
			mode: 'nested',
			model,
			prompt: "={{ $fromAI('task', 'The task', 'string') }}",
			options: orchestratorOptions,
		},
		[hashTextToolNode()],
	);
	const parent: INode = {
		id: 'parent',
		name: 'Parent',
		type: orchestratorType,
		typeVersion: 1,
		position: [0, -200],
		parameters: { model: 'parent/model', options: {} },
	};
	return {
		name: 'nested',
		nodes: [parent, ...child.nodes],
		connections: {
			...child.connections,
			Child: { ai_tool: [[{ node: 'Parent', type: 'ai_tool', index: 0 }]] },
		},
	};
}

const ownNodeTypes = { [orchestratorType]: () => new AgentOrchestrator() };

describe('the model-options table', () => {
	it('every host-free model option is set by a node parameter, and every parameter shows in both nodes', () => {
		const rows = Object.entries(modelOptionParameters) as Array<[string, ModelOptionParameter]>;
		for (const [name, row] of rows) expect(row.property.name).toBe(name);
		const set = new Set(rows.map(([, row]) => row.sets));
		for (const key of modelOptionKeys) expect(set, key).toContain(key);
		const names = (properties: unknown) =>
			((properties as { options: Array<{ name: string }> }).options ?? []).map(
				(property) => property.name,
			);
		const orchestrator = names(
			new AgentOrchestrator().description.properties.find(
				(property) => property.name === 'options',
			),
		);
		const subNode = names(
			new ToolbridgeChatModel().description.properties.find(
				(property) => property.name === 'options',
			),
		);
		for (const [name] of rows) {
			expect(
				orchestrator.filter((option) => option === name),
				name,
			).toHaveLength(1);
			expect(subNode, name).toContain(name);
		}
		// The sub-node shows the model options and nothing else.
		expect(subNode.sort()).toEqual(rows.map(([name]) => name).sort());
		expect(Object.keys(everyOption).sort()).toEqual(rows.map(([name]) => name).sort());
	});

	describe.each(['openrouter', 'openai-compatible'] as const)('to %s', (server) => {
		it.each(['full', 'validator'] as const)(
			'n8n, the Agent Orchestrator in %s mode',
			async (mode) => {
				const { fake, baseUrl } = await fakeServer(server);
				const { context } = orchestratorContext({
					baseUrl,
					tools: [upperTool()],
					options: orchestratorOptions,
					parameters: { mode, model },
				});
				await executeOrchestrator(context);
				expectEveryOption(fake.requests, server);
			},
		);

		it('n8n, the Agent Orchestrator in nested mode (a tool of another agent)', async () => {
			const { fake, baseUrl } = await fakeServer(server);
			const { supply } = fakeNodeContext({
				name: 'Child',
				baseUrl,
				parameters: {
					mode: 'nested',
					model,
					prompt: "={{ $fromAI('task', 'The task', 'string') }}",
					options: orchestratorOptions,
				},
				tools: [upperTool()],
			});
			const child = (await new AgentOrchestrator().supplyData.call(supply, 0)).response;
			const { execute } = fakeNodeContext({
				name: 'Parent',
				baseUrl,
				parameters: { mode: 'full', model: 'parent/model', prompt: 'go' },
				tools: [child],
			});
			await new AgentOrchestrator().execute.call(execute);
			expectEveryOption(fake.requests, server);
		});

		it("n8n, the Toolbridge Chat Model through n8n's LangChain adapter (n8n's AI Agent, chains)", async () => {
			const { fake, baseUrl } = await fakeServer(server);
			const chatModel = await suppliedChatModel(baseUrl);
			await chatModel.invoke([new SystemMessage('Be brief.'), new HumanMessage('hi')]);
			expectEveryOption(fake.requests, server);
		});

		it('n8n, the Toolbridge Chat Model connected to the Agent Orchestrator (called natively)', async () => {
			const { fake, baseUrl } = await fakeServer(server);
			const { context } = orchestratorContext({
				baseUrl: 'http://127.0.0.1:9/unused-own-credential',
				tools: [upperTool()],
				model: await suppliedChatModel(baseUrl),
				options: { systemMessage: 'Be brief.' },
			});
			await executeOrchestrator(context);
			expectEveryOption(fake.requests, server);
		});

		it.each(['full', 'validator'] as const)(
			'standalone, the Agent Orchestrator in %s mode (runWorkflowAgent, as toolbridge run)',
			async (mode) => {
				const { fake, baseUrl } = await fakeServer(server);
				const workflow = agentWorkflow('Agent', { mode, model, options: orchestratorOptions }, [
					hashTextToolNode(),
				]);
				await runWorkflowAgent(workflow, {
					prompt: 'hash abc',
					baseUrl,
					apiKey,
					env: {},
					nodeTypes: ownNodeTypes,
				});
				expectEveryOption(fake.requests, server);
			},
		);

		it('standalone, the Agent Orchestrator in nested mode (a tool of the parent agent)', async () => {
			const { fake, baseUrl } = await fakeServer(server);
			await runWorkflowAgent(nestedWorkflow(), {
				prompt: 'go',
				baseUrl,
				apiKey,
				env: {},
				nodeTypes: ownNodeTypes,
			});
			expectEveryOption(fake.requests, server);
		});
	});

	it('the time limits reach the connection in both hosts (they are not request fields)', async () => {
		const expected = {
			headers: expect.objectContaining({ 'X-Table-Test': 'yes' }),
			timeoutMs: 200_000,
			totalTimeoutMs: 200_000,
			firstTokenTimeoutMs: 50_000,
			stallTimeoutMs: 40_000,
		};
		const baseUrl = 'http://127.0.0.1:9/v1';
		const inN8n = await readAgentNodeSettings(
			orchestratorContext({ baseUrl, options: orchestratorOptions }).context,
			0,
		);
		expect(inN8n.connection).toMatchObject(expected);
		// The sub-node's settings as its supplyData read them (what the orchestrator's native path runs on).
		const subNode = toolbridgeNativeModelOf(await suppliedChatModel(baseUrl));
		expect(subNode?.connection).toMatchObject(expected);
		const workflow = agentWorkflow('Agent', { model, options: orchestratorOptions }, []);
		const standalone = await readOrchestratorSettings(
			workflow.nodes[0],
			new AgentOrchestrator(),
			workflow,
			{ chatInput: 'hi', credentials: () => undefined, baseUrl, apiKey, env: {} },
		);
		expect(standalone.connection).toMatchObject(expected);
		for (const option of connectionOnly)
			expect(modelOptionParameters[option].sets).toMatch(/TimeoutMs$|^timeoutMs$/);
	});
});
