/**
 * n8n's AI Agent with an output parser, standalone: the parser nodes run through n8n's own code
 * (their `supplyData`: N8nStructuredOutputParser, N8nOutputFixingParser, N8nItemListOutputParser),
 * the agent's model is an OpenAI Chat Model at a loopback fake, and the run answers the parsed
 * value as n8n's Tools Agent does (`{ output: { … } }`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runWorkflowAgent } from '../../../../src/hosts/standalone/run-workflow-agent';
import { OutputParserError } from '../../../../src/errors/output-parser-error';
import {
	startFakeChatServer,
	type FakeChatServer,
	type FakeRequest,
} from '../../../support/fake-chat-server';
import {
	answer,
	cityFromExample,
	langChainNode,
	openAiModelNode,
	parserWorkflow,
} from '../../../support/output-parser-workflows';
import type { WorkflowExport } from '../../../../src/hosts/standalone/workflow-file';

const servers: FakeChatServer[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function fake(respond: (request: FakeRequest) => string): Promise<FakeChatServer> {
	const server = await startFakeChatServer({
		respond: (request) => answer(request, respond(request)),
	});
	servers.push(server);
	return server;
}

async function run(
	workflow: WorkflowExport,
	agentModel: FakeChatServer,
	fixingModel?: FakeChatServer,
): Promise<Awaited<ReturnType<typeof runWorkflowAgent>>> {
	return await runWorkflowAgent(workflow, {
		prompt: 'Which city is the capital of France?',
		env: {},
		credentials: {
			'Agent key': { apiKey: 'sk-agent-model-key-1234', url: agentModel.baseUrl },
			...(fixingModel
				? { 'Fixing key': { apiKey: 'sk-fixing-model-key-1234', url: fixingModel.baseUrl } }
				: {}),
		},
	});
}

const systemOf = (request: FakeRequest): string => request.body.messages[0].content as string;

describe('Structured Output Parser', () => {
	it('from a JSON example: the answer is the parsed object, as n8n gives it ({ output: { … } })', async () => {
		const model = await fake(() => '{"output":{"city":"Paris","population":2100000}}');
		const result = await run(parserWorkflow(cityFromExample), model);
		if (result.mode !== 'full') throw new Error('expected a full run');
		expect(result.result.object).toEqual({ city: 'Paris', population: 2100000 });
		expect(JSON.parse(result.result.output)).toEqual({ city: 'Paris', population: 2100000 });
		// One call: the loop's answer already matched the parser's schema ({ output: … }, every field required from 1.3).
		expect(model.requests).toHaveLength(1);
		expect(systemOf(model.requests[0])).toContain('"required":["output"]');
		expect(systemOf(model.requests[0])).toContain('"required":["city","population"]');
	});

	it("from a JSON Schema: prose is answered again in the provider's structured-output mode", async () => {
		const parser = langChainNode('Structured Output Parser', 'outputParserStructured', 1.3, {
			schemaType: 'manual',
			inputSchema: JSON.stringify({
				type: 'object',
				properties: {
					city: { type: 'string' },
					continent: { type: 'string', enum: ['Europe', 'Asia'] },
				},
				required: ['city', 'continent'],
			}),
		});
		const model = await fake(({ index }) =>
			index === 0 ? 'It is Paris, in Europe.' : '{"output":{"city":"Paris","continent":"Europe"}}',
		);
		const result = await run(parserWorkflow(parser), model);
		expect(result.mode === 'full' && result.result.object).toEqual({
			city: 'Paris',
			continent: 'Europe',
		});
		expect(model.requests).toHaveLength(2);
		const format = model.requests[1].body.response_format;
		expect(format.type).toBe('json_schema');
		expect(format.json_schema.schema.properties.output.properties.continent.enum).toEqual([
			'Europe',
			'Asia',
		]);
	});

	it('an answer that never validates is OUTPUT_PARSER_FAILED naming the agent and the parser', async () => {
		const model = await fake(() => '{"output":{"city":42}}');
		const failure = await run(parserWorkflow(cityFromExample), model).catch(
			(error: unknown) => error,
		);
		expect(failure).toBeInstanceOf(OutputParserError);
		expect(failure).toMatchObject({
			code: 'OUTPUT_PARSER_FAILED',
			agentName: 'AI Agent',
			parserName: 'Structured Output Parser',
		});
		expect((failure as Error).message).toContain(
			'The answer of agent "AI Agent" did not pass its output parser "Structured Output Parser"',
		);
		expect((failure as Error).message).toContain('attempt 2: /output: required property');
		// The loop's JSON answer (rejected) and one repair, then the parser's own parse: no more calls.
		expect(model.requests).toHaveLength(2);
		expect(model.requests[1].body.messages.at(-1).content).toContain(
			'Your answer does not match the required JSON Schema',
		);
	});

	it('is not used when the agent does not require a specific output format', async () => {
		const model = await fake(() => 'Paris.');
		const result = await run(
			parserWorkflow(cityFromExample, [], [], { hasOutputParser: false }),
			model,
		);
		expect(result.mode === 'full' && result.result).toMatchObject({ output: 'Paris.' });
		expect(result.mode === 'full' && result.result.object).toBeUndefined();
	});

	it('is used by an AI Agent 1.2, where n8n uses any connected parser', async () => {
		const model = await fake(() => '{"output":{"city":"Paris","population":1}}');
		const result = await run(parserWorkflow(cityFromExample, [], [], { typeVersion: 1.2 }), model);
		expect(result.mode === 'full' && result.result.object).toEqual({
			city: 'Paris',
			population: 1,
		});
	});
});

describe('a parser that cannot be supplied', () => {
	it.each([
		[
			'a JSON Schema that is not JSON',
			langChainNode('Structured Output Parser', 'outputParserStructured', 1.3, {
				schemaType: 'manual',
				inputSchema: '{ not json',
			}),
		],
		[
			'an Auto-fixing parser without its model',
			langChainNode('Structured Output Parser', 'outputParserAutofixing', 1, { options: {} }),
		],
	])('%s: OUTPUT_PARSER_UNAVAILABLE before any model call', async (_case, parser) => {
		const model = await fake(() => 'unused');
		await expect(run(parserWorkflow(parser), model)).rejects.toMatchObject({
			code: 'OUTPUT_PARSER_UNAVAILABLE',
			message: expect.stringContaining(
				'The output parser "Structured Output Parser" (@n8n/n8n-nodes-langchain.',
			),
		});
		expect(model.requests).toHaveLength(0);
	});
});

describe('Auto-fixing Output Parser', () => {
	it("sends an answer that never validates to its own model with n8n's fixing prompt", async () => {
		const fixing = langChainNode('Auto-fixing Output Parser', 'outputParserAutofixing', 1, {
			options: {},
		});
		const workflow = parserWorkflow(
			fixing,
			[openAiModelNode('Fixing model', 'Fixing key', 'gpt-4o'), cityFromExample],
			[
				{ from: 'Fixing model', to: fixing.name, type: 'ai_languageModel' },
				{ from: cityFromExample.name, to: fixing.name, type: 'ai_outputParser' },
			],
		);
		const agentModel = await fake(() => '{"output":{"city":"Paris"}}');
		const fixingModel = await fake(() => '{"output":{"city":"Paris","population":2100000}}');
		const result = await run(workflow, agentModel, fixingModel);
		expect(result.mode === 'full' && result.result.object).toEqual({
			city: 'Paris',
			population: 2100000,
		});
		expect(fixingModel.requests).toHaveLength(1);
		const prompt = JSON.stringify(fixingModel.requests[0].body.messages);
		expect(prompt).toContain('Above, the Completion did not satisfy the constraints');
		expect(prompt).toContain('{\\"output\\":{\\"city\\":\\"Paris\\"}}');
		expect(fixingModel.requests[0].body.model).toBe('gpt-4o');
		expect(result.mode === 'full' && result.result.outputAttempts).toHaveLength(2);
	});
});

describe('Structured Output Parser with "Auto-Fix Format"', () => {
	it('fixes an answer that never validates with the model on its own input and its custom prompt', async () => {
		const parser = langChainNode('Structured Output Parser', 'outputParserStructured', 1.3, {
			jsonSchemaExample: '{"city":"Paris","population":2100000}',
			autoFix: true,
			customizeRetryPrompt: true,
			prompt: 'Fix this.\n{instructions}\n{completion}\nError: {error}',
		});
		const workflow = parserWorkflow(
			parser,
			[openAiModelNode('Fixing model', 'Fixing key', 'gpt-4o')],
			[{ from: 'Fixing model', to: parser.name, type: 'ai_languageModel' }],
		);
		const agentModel = await fake(() => 'Paris, about two million people.');
		const fixingModel = await fake(() => '{"output":{"city":"Paris","population":2100000}}');
		const result = await run(workflow, agentModel, fixingModel);
		expect(result.mode === 'full' && result.result.object).toEqual({
			city: 'Paris',
			population: 2100000,
		});
		expect(fixingModel.requests).toHaveLength(1);
		const prompt = JSON.stringify(fixingModel.requests[0].body.messages);
		expect(prompt).toContain('Fix this.');
		expect(prompt).toContain('Paris, about two million people.');
	});
});

describe('Item List Output Parser', () => {
	it("gives the model the parser's format instructions and answers the list", async () => {
		const parser = langChainNode('Item List Output Parser', 'outputParserItemList', 1, {
			options: { numberOfItems: 3 },
		});
		const model = await fake(() => 'Paris\nLyon\nMarseille\nNice');
		const result = await run(parserWorkflow(parser), model);
		expect(result.mode === 'full' && result.result.object).toEqual(['Paris', 'Lyon', 'Marseille']);
		expect(systemOf(model.requests[0])).toContain('Your response should be a list of 3 items');
	});

	it('too few items: OUTPUT_PARSER_FAILED', async () => {
		const parser = langChainNode('Item List Output Parser', 'outputParserItemList', 1, {
			options: { numberOfItems: 3 },
		});
		const model = await fake(() => 'Paris');
		await expect(run(parserWorkflow(parser), model)).rejects.toMatchObject({
			code: 'OUTPUT_PARSER_FAILED',
			message: expect.stringContaining('Expected 3 items but got 1'),
		});
	});
});
