import { createHash } from 'node:crypto';
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { AgentOrchestrator } from '../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import { errorReply, textReply, toolCallReply } from '../support/fake-chat-server';
import {
	executeOrchestrator as executeNode,
	orchestratorApiKey as apiKey,
	orchestratorContext as makeContext,
} from '../support/orchestrator-context';
import { hashTool } from '../support/langchain-tools';
import { fakeChatServerPerTest } from '../support/fake-chat-server-hooks';

const start = fakeChatServerPerTest();

describe('AgentOrchestrator node', () => {
	it('describes the inputs, credentials and defaults the design asks for', () => {
		const { description } = new AgentOrchestrator();
		expect(description.name).toBe('agentOrchestrator');
		expect(description.inputs).toEqual([
			{ type: 'main' },
			{ type: 'ai_languageModel', displayName: 'Chat Model', required: false, maxConnections: 1 },
			{ type: 'ai_tool', displayName: 'Tools', required: false },
			{ type: 'ai_memory', displayName: 'Memory', required: false, maxConnections: 1 },
		]);
		expect(description.credentials?.map((credential) => credential.name)).toEqual([
			'openRouterApi',
			'openAiCompatibleApi',
		]);
		const byName = Object.fromEntries(
			description.properties.map((property) => [property.name, property]),
		);
		// Version 1 stores the model as a string; 1.1 (the default) as a resource locator with a searchable list.
		expect(description.version).toEqual([1, 1.1]);
		expect(description.defaultVersion).toBe(1.1);
		const models = description.properties.filter((property) => property.name === 'model');
		expect(
			models.map((property) => [
				property.type,
				property.default,
				property.displayOptions?.show?.['@version'],
			]),
		).toEqual([
			['string', 'anthropic/claude-sonnet-4', [1]],
			[
				'resourceLocator',
				{ mode: 'list', value: 'anthropic/claude-sonnet-4' },
				[{ _cnd: { gte: 1.1 } }],
			],
		]);
		expect(models[1].modes?.map((mode) => [mode.name, mode.typeOptions?.searchListMethod])).toEqual(
			[
				['list', 'searchModels'],
				['id', undefined],
			],
		);
		expect(Object.keys(new AgentOrchestrator().methods.listSearch)).toEqual(['searchModels']);
		expect(byName.prompt.default).toBe('={{ $json.chatInput }}');
		const optionNames = (byName.options.options ?? []).map((option) =>
			'name' in option ? option.name : '',
		);
		expect(optionNames).toEqual(
			expect.arrayContaining([
				'systemMessage',
				'maxIterations',
				'maxIterationsBehavior',
				'toolChoice',
				'temperature',
				'maxTokens',
				'reasoningEffort',
				'parallelToolCalls',
				'timeout',
				'returnIntermediateSteps',
				'debugLog',
			]),
		);
	});

	it.each([
		['a string (version 1)', ' test/string-model '],
		[
			'a resource locator (version 1.1), also unextracted',
			{ __rl: true, mode: 'list', value: 'test/listed-model' },
		],
	])('reads the model from %s', async (_shape, model) => {
		const fake = await start(() => textReply('ok'));
		const { context } = makeContext({ baseUrl: fake.baseUrl, parameters: { model } });
		await executeNode(context);
		expect(fake.requests[0].body.model).toBe(
			typeof model === 'string' ? model.trim() : model.value,
		);
	});

	it('runs one loop per item with connected tools, and returns steps, usage and iterations when asked', async () => {
		const fake = await start(({ body }) => {
			const tool = (body.messages as Array<{ role: string; content: string }>).find(
				(message) => message.role === 'tool',
			);
			if (!tool)
				return toolCallReply([
					{ id: 'c1', name: 'hash', arguments: { text: body.messages.at(-1).content } },
				]);
			return textReply(`digest ${tool.content}`);
		});
		const { context } = makeContext({
			baseUrl: fake.baseUrl,
			items: [{ chatInput: 'one' }, { chatInput: 'two' }],
			tools: [hashTool()],
			options: {
				returnIntermediateSteps: true,
				systemMessage: 'Use tools.',
				temperature: 0.2,
				maxTokens: 99,
				reasoningEffort: 'low',
			},
		});
		const [output] = await executeNode(context);
		expect(output.map((item) => item.json.output)).toEqual([
			`digest ${createHash('sha256').update('one').digest('hex')}`,
			`digest ${createHash('sha256').update('two').digest('hex')}`,
		]);
		expect(output[1].pairedItem).toEqual({ item: 1 });
		expect(output[0].json).toMatchObject({
			iterations: 2,
			usage: { promptTokens: 24 },
			steps: [{ tool: 'hash', arguments: { text: 'one' }, isError: false }],
		});
		expect(fake.requests[0].headers.authorization).toBe(`Bearer ${apiKey}`);
		expect(fake.requests[0].body).toMatchObject({
			model: 'test/model',
			temperature: 0.2,
			max_tokens: 99,
			reasoning_effort: 'low',
		});
		expect(fake.requests[0].body.messages[0]).toEqual({ role: 'system', content: 'Use tools.' });
	});

	it('streamed text never carries the key, also split across deltas', async () => {
		const fake = await start(() => textReply(`My key is ${apiKey}.`, { deltaSize: 3 }));
		const { context, chunks } = makeContext({ baseUrl: fake.baseUrl, streaming: true });
		const [output] = await executeNode(context);
		const text = chunks.filter(([type]) => type === 'item').map(([, , content]) => content);
		expect(text.join('')).toBe('My key is [REDACTED].');
		expect(text.join('|')).not.toContain(apiKey.slice(0, 8));
		expect(output[0].json.output).toBe('My key is [REDACTED].');
	});

	it('streams text with sendChunk and writes a redacted debug log', async () => {
		const fake = await start(({ index }) =>
			index === 0
				? toolCallReply([{ id: 'c1', name: 'hash', arguments: { text: `leak ${apiKey}` } }])
				: textReply('Streamed answer.', { deltaSize: 4 }),
		);
		const { context, chunks } = makeContext({
			baseUrl: fake.baseUrl,
			tools: [hashTool()],
			streaming: true,
			options: { debugLog: true },
		});
		const [output] = await executeNode(context);
		expect(chunks[0]).toEqual(['begin', 0, undefined]);
		expect(chunks.at(-1)).toEqual(['end', 0, undefined]);
		const text = chunks
			.filter(([type, , content]) => type === 'item' && !String(content).startsWith('[DEBUG]'))
			.map(([, , content]) => content);
		expect(text.join('')).toBe('Streamed answer.');
		const debugLog = output[0].json.debugLog as string[];
		// This fake context is not n8n-core's WorkflowExecute: no EngineResponse, so in-process, said once.
		expect(debugLog[0]).toBe(
			'[DEBUG] Tool Execution: in-process for this run: this n8n cannot take engine requests (they arrived with n8n 1.113)',
		);
		expect(debugLog[1]).toBe('[DEBUG] Starting agent loop. Tools available: 1, toolChoice: auto');
		expect(debugLog).toContain('[DEBUG] Iteration 1/20');
		expect(
			debugLog.some((line) =>
				line.startsWith('[DEBUG] Executing tool: hash with args: {"text":"leak [REDACTED]"}'),
			),
		).toBe(true);
		expect(JSON.stringify(output)).not.toContain(apiKey);
		expect(JSON.stringify(chunks)).not.toContain(apiKey);
	});

	it('loads and saves the connected memory', async () => {
		const fake = await start(({ index }) =>
			index === 0
				? toolCallReply([{ id: 'm1', name: 'hash', arguments: { text: 'x' } }])
				: textReply('saved'),
		);
		const history = new InMemoryChatMessageHistory();
		await history.addUserMessage('earlier question');
		await history.addAIMessage('earlier answer');
		const { context } = makeContext({
			baseUrl: fake.baseUrl,
			tools: [hashTool()],
			memory: { chatHistory: history },
		});
		await executeNode(context);
		expect(fake.requests[0].body.messages.slice(0, 2)).toEqual([
			{ role: 'user', content: 'earlier question' },
			{ role: 'assistant', content: 'earlier answer' },
		]);
		expect((await history.getMessages()).map((message) => message.getType())).toEqual([
			'human',
			'ai',
			'human',
			'ai',
			'tool',
			'ai',
		]);
	});

	it('uses the OpenAI-compatible credential with its extra headers', async () => {
		const fake = await start(() => textReply('ok'));
		const { context } = makeContext({
			baseUrl: fake.baseUrl,
			credentialType: 'openAiCompatibleApi',
			credentials: { apiKey: '', extraHeaders: '{"X-Tenant": "blue"}' },
		});
		const [output] = await executeNode(context);
		expect(output[0].json.output).toBe('ok');
		expect(fake.requests[0].headers['x-tenant']).toBe('blue');
		expect(fake.requests[0].headers.authorization).toBeUndefined();
	});

	it('fails with a NodeOperationError and a hint, or gives an error item on continue-on-fail', async () => {
		const fake = await start(() => errorReply(401, 'No auth credentials found'));
		const failing = makeContext({ baseUrl: fake.baseUrl });
		const error = await executeNode(failing.context).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).description).toMatch(/API key/);
		expect((error as NodeOperationError).message).not.toContain(apiKey);

		const continuing = makeContext({
			baseUrl: fake.baseUrl,
			continueOnFail: true,
			items: [{ chatInput: 'a' }],
		});
		const [output] = await executeNode(continuing.context);
		expect(output[0].json).toMatchObject({
			code: 'CHAT_AUTHENTICATION',
			error: expect.stringMatching(/No auth credentials found/),
		});
	});

	it('gives the steps with the error item when max iterations stop the run', async () => {
		const fake = await start(({ index }) =>
			toolCallReply([{ id: `i${index}`, name: 'hash', arguments: { text: String(index) } }]),
		);
		const { context } = makeContext({
			baseUrl: fake.baseUrl,
			tools: [hashTool()],
			continueOnFail: true,
			options: { maxIterations: 2 },
		});
		const [output] = await executeNode(context);
		expect(output[0].json).toMatchObject({ code: 'AGENT_MAX_ITERATIONS', iterations: 2 });
		expect(output[0].json.steps).toHaveLength(2);
	});

	it('rejects an empty prompt with a clear message', async () => {
		const fake = await start(() => textReply('unused'));
		const { context } = makeContext({ baseUrl: fake.baseUrl, items: [{ other: 1 }] });
		await expect(executeNode(context)).rejects.toThrow(/prompt is empty/);
		expect(fake.requests).toHaveLength(0);
	});
});
