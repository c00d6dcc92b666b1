import { createHash } from 'node:crypto';
import type { DynamicStructuredTool } from '@langchain/core/tools';
import { NodeOperationError } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { AgentOrchestrator } from '../../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import { loadWorkflowTools } from '../../../src/hosts/standalone/load-workflow-tools';
import {
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeReply,
	type FakeRequest,
} from '../../support/fake-chat-server';
import { fakeChatServerPerTest } from '../../support/fake-chat-server-hooks';
import { agentWorkflow, formatDateToolNode, hashTextToolNode } from '../../support/real-tool-nodes';
import { fakeNodeContext } from './fake-node-context';

/** Two real n8n-nodes-base tools (Crypto, Date & Time) connected to a validator-mode orchestrator. */
const workflow = agentWorkflow('Validator', { mode: 'validator' }, [
	hashTextToolNode(),
	formatDateToolNode(),
]);

let tools: DynamicStructuredTool[];
beforeAll(async () => {
	tools = (await loadWorkflowTools(workflow)).langChainTools;
});

const serve = fakeChatServerPerTest();

function start(replies: FakeReply[]): Promise<FakeChatServer> {
	return serve(({ index }: FakeRequest) => replies[Math.min(index, replies.length - 1)]);
}

/** Counts real runs of a tool without changing it. */
function counted(tool: DynamicStructuredTool, counter: { runs: number }): DynamicStructuredTool {
	return new Proxy(tool, {
		get(target, property, receiver) {
			if (property !== 'invoke') return Reflect.get(target, property, receiver);
			return async (...args: unknown[]) => {
				counter.runs += 1;
				return (target.invoke as (...rest: unknown[]) => unknown).apply(target, args);
			};
		},
	});
}

function run(
	parameters: Record<string, unknown>,
	baseUrl: string,
	extra: { continueOnFail?: boolean; toolList?: unknown[] } = {},
) {
	const { execute } = fakeNodeContext({
		name: 'Validator',
		baseUrl,
		parameters: {
			mode: 'validator',
			model: 'test/model',
			prompt: 'Hash the word toolbridge',
			...parameters,
		},
		tools: extra.toolList ?? tools,
		continueOnFail: extra.continueOnFail,
	});
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	type Output = Array<Array<{ json: Record<string, any> }>>;
	return new AgentOrchestrator().execute.call(execute) as Promise<Output>;
}

const digest = createHash('sha256').update('toolbridge').digest('hex');

describe('validator mode with real n8n-nodes-base tools', () => {
	it('runs the forced tool once when the first call is valid', async () => {
		const fake = await start([
			toolCallReply([{ id: 'v1', name: 'Hash_text', arguments: { text: 'toolbridge' } }]),
		]);
		const counter = { runs: 0 };
		const [[item]] = await run({ validatorTool: 'Hash text' }, fake.baseUrl, {
			toolList: [counted(tools[0], counter), tools[1]],
		});
		expect(item.json).toMatchObject({
			tool: 'Hash_text',
			arguments: { text: 'toolbridge' },
			attempts: 1,
		});
		expect(item.json.result).toEqual([{ sha256: digest }]);
		expect(counter.runs).toBe(1);
		expect(fake.requests).toHaveLength(1);
		const body = fake.requests[0].body;
		expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'Hash_text' } });
		expect(body.parallel_tool_calls).toBe(false);
		expect(body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
			'Hash_text',
		]);
		expect(body.tools[0].function.parameters.properties.text.type).toBe('string');
	});

	it('sends the schema errors back and succeeds on the second attempt', async () => {
		const fake = await start([
			toolCallReply([{ id: 'bad', name: 'Hash_text', arguments: { text: 42, extra: true } }]),
			toolCallReply([{ id: 'good', name: 'Hash_text', arguments: { text: 'toolbridge' } }]),
		]);
		const [[item]] = await run({}, fake.baseUrl);
		expect(item.json).toMatchObject({
			tool: 'Hash_text',
			attempts: 2,
			result: [{ sha256: digest }],
		});
		const second = fake.requests[1].body;
		expect(second.tool_choice).toBe('required');
		expect(second.messages.at(-2)).toMatchObject({
			role: 'assistant',
			tool_calls: [{ id: 'bad', function: { name: 'Hash_text' } }],
		});
		expect(second.messages.at(-1)).toEqual({
			role: 'tool',
			tool_call_id: 'bad',
			content:
				`Error: invalid arguments for tool 'Hash_text':\n` +
				`- "text": expected a string, received the number 42\n` +
				`- "extra": expected no such argument (known: text), received the boolean true\n` +
				'Fix the arguments and call the tool again.',
		});
	});

	it('counts a text answer as a failed attempt and tells the model to call the tool', async () => {
		const fake = await start([
			textReply('The hash is probably abc.'),
			toolCallReply([
				{ id: 'ok', name: 'Format_date', arguments: { date: '2024-02-29T10:00:00Z' } },
			]),
		]);
		const [[item]] = await run({ options: { returnIntermediateSteps: true } }, fake.baseUrl);
		expect(item.json).toMatchObject({ tool: 'Format_date', attempts: 2 });
		expect(JSON.stringify(item.json.result)).toContain('2024');
		expect(item.json.attemptLog[0].errors[0]).toMatch(/answered with text/);
		expect(item.json.usage.promptTokens).toBe(24);
		expect(fake.requests[1].body.messages.slice(-2)).toEqual([
			{ role: 'assistant', content: 'The hash is probably abc.' },
			{
				role: 'user',
				content: expect.stringMatching(
					/^Error: you answered with text, but this step needs a tool call\. Call one of the tools \(Hash_text, Format_date\)/,
				),
			},
		]);
	});

	it('with "validate only" returns the valid arguments without running the tool', async () => {
		const fake = await start([
			toolCallReply([{ id: 'v', name: 'Hash_text', arguments: { text: 'toolbridge' } }]),
		]);
		const counter = { runs: 0 };
		const [[item]] = await run({ validatorTool: 'Hash_text', validateOnly: true }, fake.baseUrl, {
			toolList: [counted(tools[0], counter)],
		});
		expect(item.json).toEqual({
			tool: 'Hash_text',
			arguments: { text: 'toolbridge' },
			attempts: 1,
		});
		expect(counter.runs).toBe(0);
	});

	const badReplies = () => [
		toolCallReply([{ id: 'x1', name: 'Delete_everything', arguments: {} }]),
		toolCallReply([{ id: 'x2', name: 'Hash_text', arguments: '{"text": "unterminated' }]),
		toolCallReply([{ id: 'x3', name: 'Hash_text', arguments: {} }]),
	];

	it('fails with a NodeOperationError listing every attempt when max attempts are used', async () => {
		const fake = await start(badReplies());
		const error = (await run({}, fake.baseUrl).catch(
			(caught: unknown) => caught,
		)) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(
			/did not produce a valid tool call in 3 attempts \(max attempts 3\)/,
		);
		expect(error.message).toMatch(
			/Attempt 1 \(Delete_everything\):\n {2}Error: model tried to call unavailable tool 'Delete_everything'/,
		);
		expect(error.message).toMatch(
			/Attempt 2 \(Hash_text\):\n {2}Error: the arguments for tool 'Hash_text' are not valid JSON/,
		);
		expect(error.message).toMatch(
			/Attempt 3 \(Hash_text\):\n {2}Error: invalid arguments for tool 'Hash_text':\n {2}- "text": expected a string \(required\), received nothing/,
		);
		expect(fake.requests).toHaveLength(3);
	});

	it('gives { error, attempts } on continue-on-fail', async () => {
		const fake = await start(badReplies());
		const [[item]] = await run({ maxAttempts: 2 }, fake.baseUrl, { continueOnFail: true });
		expect(item.json).toMatchObject({
			code: 'VALIDATOR_ATTEMPTS_EXHAUSTED',
			attempts: 2,
			error: expect.stringMatching(/in 2 attempts/),
		});
		expect(item.json.attemptLog.map((attempt: { tool: string }) => attempt.tool)).toEqual([
			'Delete_everything',
			'Hash_text',
		]);
		expect(fake.requests).toHaveLength(2);
	});

	it('rejects a chosen tool that is not connected, before any model call', async () => {
		const fake = await start([textReply('unused')]);
		await expect(run({ validatorTool: 'Send_email' }, fake.baseUrl)).rejects.toThrow(
			/Tool 'Send_email' is not connected\. Connected tools: Hash_text, Format_date/,
		);
		expect(fake.requests).toHaveLength(0);
	});
});
