import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createChatModelCaller } from '../../src/agent/create-chat-model-caller';
import { AgentStoppedError } from '../../src/agent/agent-stopped-error';
import {
	errorReply,
	reasoningReply,
	textReply,
	toolCallReply,
	type FakeReply,
	type FakeRequest,
} from '../support/fake-chat-server';
import { fakeChatServerPerTest } from '../support/fake-chat-server-hooks';
import { drivers } from './loop-drivers';
import { addTool, delayTool, failingTool, sha256Tool } from './test-tools';

const serve = fakeChatServerPerTest();

async function start(respond: (request: FakeRequest) => FakeReply) {
	const server = await serve(respond);
	return {
		server,
		callModel: createChatModelCaller({
			baseUrl: server.baseUrl,
			apiKey: 'sk-test-key',
			retry: { maxRetries: 0 },
		}),
	};
}

/** The messages the model received in request `index`. */
function messagesOf(request: FakeRequest): Array<Record<string, unknown>> {
	return request.body.messages as Array<Record<string, unknown>>;
}

describe.each(drivers)('agent loop (%s driver)', (_name, drive) => {
	it('answers without tools and sends the tool definitions', async () => {
		const { server, callModel } = await start(() => textReply('Hello there.'));
		const { result } = await drive({
			input: { config: { model: 'm/1', systemMessage: 'Be brief.' }, prompt: 'Hi' },
			tools: [addTool()],
			callModel,
		});
		expect(result.output).toBe('Hello there.');
		expect(result.iterations).toBe(1);
		expect(result.steps).toEqual([]);
		expect(result.usage.promptTokens).toBe(12);
		const body = server.requests[0].body;
		expect(body.model).toBe('m/1');
		expect(body.messages).toEqual([
			{ role: 'system', content: 'Be brief.' },
			{ role: 'user', content: 'Hi' },
		]);
		expect(body.tools[0].function).toMatchObject({
			name: 'add',
			parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
		});
		expect(body.tool_choice).toBeUndefined();
	});

	it('runs a tool and sends its result back after an assistant message with content null', async () => {
		const { server, callModel } = await start(({ index, body }) => {
			if (index === 0)
				return toolCallReply([{ id: 'call_1', name: 'sha256', arguments: { text: 'abc' } }]);
			const toolMessage = (body.messages as Array<{ role: string; content: string }>).find(
				(message) => message.role === 'tool',
			);
			return textReply(`The digest is ${toolMessage?.content}`);
		});
		const { result } = await drive({
			input: { config: { model: 'm' }, prompt: 'hash abc' },
			tools: [sha256Tool(), addTool()],
			callModel,
		});
		const digest = createHash('sha256').update('abc').digest('hex');
		expect(result.output).toBe(`The digest is ${digest}`);
		expect(result.steps).toMatchObject([
			{
				iteration: 1,
				toolCallId: 'call_1',
				tool: 'sha256',
				arguments: { text: 'abc' },
				result: digest,
				isError: false,
			},
		]);
		expect(result.steps[0].durationMs).toBeGreaterThanOrEqual(0);
		const second = messagesOf(server.requests[1]);
		expect(second.slice(1)).toEqual([
			{
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: 'call_1',
						type: 'function',
						function: { name: 'sha256', arguments: '{"text":"abc"}' },
					},
				],
			},
			{ role: 'tool', tool_call_id: 'call_1', content: digest },
		]);
	});

	it('runs parallel calls concurrently up to the cap and returns results in call order', async () => {
		const tracker = { running: 0, maxRunning: 0, finished: [] as string[] };
		const { server, callModel } = await start(({ index }) =>
			index === 0
				? toolCallReply([
						{ id: 'c1', name: 'wait_echo', arguments: { label: 'first', ms: 60 } },
						{ id: 'c2', name: 'wait_echo', arguments: { label: 'second', ms: 5 } },
						{ id: 'c3', name: 'wait_echo', arguments: { label: 'third', ms: 30 } },
					])
				: textReply('done'),
		);
		const { result } = await drive({
			input: { config: { model: 'm' }, prompt: 'go' },
			tools: [delayTool(tracker)],
			callModel,
			concurrency: 2,
		});
		expect(result.output).toBe('done');
		const toolMessages = messagesOf(server.requests[1]).filter(
			(message) => message.role === 'tool',
		);
		expect(toolMessages.map((message) => [message.tool_call_id, message.content])).toEqual([
			['c1', 'echo:first'],
			['c2', 'echo:second'],
			['c3', 'echo:third'],
		]);
		expect(result.steps.map((step) => step.toolCallId)).toEqual(['c1', 'c2', 'c3']);
		expect(tracker.maxRunning).toBeLessThanOrEqual(2);
	});

	it('answers a call of an unknown tool with the list of available tools, and goes on', async () => {
		const { server, callModel } = await start(({ index }) =>
			index === 0
				? toolCallReply([{ id: 'u1', name: 'web_search', arguments: { q: 'x' } }])
				: textReply('ok'),
		);
		const { result } = await drive({
			input: { config: { model: 'm' }, prompt: 'p' },
			tools: [addTool(), sha256Tool()],
			callModel,
		});
		expect(result.output).toBe('ok');
		expect(result.steps[0]).toMatchObject({ tool: 'web_search', isError: true });
		const tool = messagesOf(server.requests[1]).find((message) => message.role === 'tool');
		expect(tool?.content).toBe(
			"Model tried to call unavailable tool 'web_search'. Available tools: add, sha256.",
		);
	});

	it('answers broken argument JSON with an observation and sends "{}" back as the arguments', async () => {
		const { server, callModel } = await start(({ index }) =>
			index === 0
				? toolCallReply([{ id: 'b1', name: 'add', arguments: '{"a": 1, "b":' }])
				: textReply('fixed'),
		);
		const { result } = await drive({
			input: { config: { model: 'm' }, prompt: 'p' },
			tools: [addTool()],
			callModel,
		});
		expect(result.output).toBe('fixed');
		expect(result.steps[0]).toMatchObject({
			tool: 'add',
			arguments: '{"a": 1, "b":',
			isError: true,
		});
		const [assistant, tool] = messagesOf(server.requests[1]).slice(1);
		expect(
			(assistant.tool_calls as Array<{ function: { arguments: string } }>)[0].function.arguments,
		).toBe('{}');
		expect(tool.content).toMatch(
			/^Invalid arguments for tool 'add': .+ Call it again with the arguments as one JSON object/,
		);
	});

	it('turns a tool error and a schema mismatch into observations, and goes on', async () => {
		const { server, callModel } = await start(({ index }) =>
			index === 0
				? toolCallReply([
						{ id: 'e1', name: 'save_file', arguments: { path: '/tmp/x' } },
						{ id: 'e2', name: 'add', arguments: { a: 'one', b: 2 } },
					])
				: textReply('sorry'),
		);
		const { result } = await drive({
			input: { config: { model: 'm' }, prompt: 'p' },
			tools: [failingTool('disk full'), addTool()],
			callModel,
		});
		expect(result.output).toBe('sorry');
		expect(result.steps.map((step) => step.isError)).toEqual([true, true]);
		const tools = messagesOf(server.requests[1]).filter((message) => message.role === 'tool');
		expect(tools[0].content).toBe('Error: disk full');
		expect(tools[1].content).toMatch(/did not match expected schema/);
		expect(tools[1].content).toMatch(/a/);
	});

	it('fails at max iterations with the steps attached (behaviour "error")', async () => {
		const { server, callModel } = await start(({ index }) =>
			toolCallReply([{ id: `m${index}`, name: 'add', arguments: { a: index, b: 1 } }]),
		);
		const run = drive({
			input: { config: { model: 'm', maxIterations: 3 }, prompt: 'p' },
			tools: [addTool()],
			callModel,
		});
		const error = await run.catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(AgentStoppedError);
		expect(error).toMatchObject({
			code: 'AGENT_MAX_ITERATIONS',
			reason: 'max-iterations',
			iterations: 3,
		});
		expect((error as AgentStoppedError).steps.map((step) => step.result)).toEqual([
			'{"sum":1}',
			'{"sum":2}',
			'{"sum":3}',
		]);
		expect(server.requests).toHaveLength(3);
	});

	it('makes one last call without tools at max iterations (behaviour "final answer")', async () => {
		const { server, callModel } = await start(({ index, body }) =>
			body.tool_choice === 'none'
				? textReply('Best I can say: 3.')
				: toolCallReply([{ id: `f${index}`, name: 'add', arguments: { a: index, b: 2 } }]),
		);
		const { result } = await drive({
			input: {
				config: { model: 'm', maxIterations: 2, limitBehavior: 'final-answer' },
				prompt: 'p',
			},
			tools: [addTool()],
			callModel,
		});
		expect(result).toMatchObject({
			output: 'Best I can say: 3.',
			stopReason: 'max-iterations',
			iterations: 3,
		});
		expect(result.steps).toHaveLength(2);
		const last = server.requests[2].body;
		expect(last.tool_choice).toBe('none');
		expect(last.tools).toHaveLength(1);
		expect(last.messages.at(-1)).toMatchObject({
			role: 'user',
			content: expect.stringMatching(/Do not call any more tools/),
		});
		expect(last.messages.at(-2)).toMatchObject({ role: 'tool', tool_call_id: 'f1' });
	});

	it('tells the model once about a repeated identical call, then stops', async () => {
		const { server, callModel } = await start(({ index }) =>
			// Same tool, same arguments, different key order each time.
			toolCallReply([
				{
					id: `r${index}`,
					name: 'add',
					arguments: index % 2 === 0 ? { a: 1, b: 2 } : { b: 2, a: 1 },
				},
			]),
		);
		const error = await drive({
			input: { config: { model: 'm', repeatedCallLimit: 3 }, prompt: 'p' },
			tools: [addTool()],
			callModel,
		}).catch((caught: unknown) => caught);
		expect(error).toMatchObject({ code: 'AGENT_REPEATED_CALL', reason: 'repeated-call' });
		const steps = (error as AgentStoppedError).steps;
		expect(steps.map((step) => [step.result, step.isError])).toEqual([
			['{"sum":3}', false],
			['{"sum":3}', false],
			[
				expect.stringMatching(
					/was called 3 times with these same arguments, so it was not run again/,
				),
				true,
			],
			[expect.stringMatching(/^Not run: the run is ending/), true],
		]);
		expect(server.requests).toHaveLength(4);
	});

	it('passes reasoning_details back unmodified across a tool turn', async () => {
		const { server, callModel } = await start(({ index }) => {
			if (index > 0) return textReply('4');
			const reply = reasoningReply('I should add 2 and 2.', '', {
				signature: 'sig-XYZ',
				deltaSize: 6,
			});
			const tools = toolCallReply([{ id: 'rc1', name: 'add', arguments: { a: 2, b: 2 } }]);
			// Reasoning deltas, then the tool-call deltas and finish of the tool reply.
			const reasoningChunks = (reply.chunks ?? []).filter((chunk) =>
				JSON.stringify(chunk).includes('reasoning_details'),
			);
			return { chunks: [...reasoningChunks, ...(tools.chunks ?? [])] };
		});
		const { result } = await drive({
			input: { config: { model: 'm', reasoning: { effort: 'high' } }, prompt: '2+2' },
			tools: [addTool()],
			callModel,
		});
		expect(result.output).toBe('4');
		expect(result.reasoning).toBe('I should add 2 and 2.');
		// The loopback fake is not OpenRouter: the effort goes in Chat Completions' own field.
		expect(server.requests[0].body.reasoning_effort).toBe('high');
		const assistant = messagesOf(server.requests[1]).find(
			(message) => message.role === 'assistant',
		);
		expect(assistant?.content).toBeNull();
		// The streamed deltas merged per index (text joined, the signature of the last delta), nothing else changed.
		expect(assistant?.reasoning_details).toEqual([
			{
				type: 'reasoning.text',
				text: 'I should add 2 and 2.',
				format: 'anthropic-claude-v1',
				index: 0,
				signature: 'sig-XYZ',
			},
		]);
	});

	it('uses tool_choice "required" on the first call only', async () => {
		const { server, callModel } = await start(({ index }) =>
			index === 0
				? toolCallReply([{ id: 'q1', name: 'add', arguments: { a: 1, b: 1 } }])
				: textReply('2'),
		);
		await drive({
			input: {
				config: { model: 'm', toolChoice: 'required', parallelToolCalls: false },
				prompt: 'p',
			},
			tools: [addTool()],
			callModel,
		});
		expect(server.requests.map((request) => request.body.tool_choice)).toEqual([
			'required',
			undefined,
		]);
		expect(server.requests.map((request) => request.body.parallel_tool_calls)).toEqual([
			false,
			false,
		]);
	});

	it('surfaces a model error as the chat client error', async () => {
		const { callModel } = await start(() => errorReply(401, 'No auth credentials found'));
		const error = await drive({
			input: { config: { model: 'm' }, prompt: 'p' },
			tools: [],
			callModel,
		}).catch((caught: unknown) => caught);
		expect(error).toMatchObject({ code: 'CHAT_AUTHENTICATION' });
		expect(String((error as Error).message)).not.toContain('sk-test-key');
	});
});

describe('abort (in-process driver)', () => {
	it('stops with reason "aborted" when the signal fires during a tool call', async () => {
		const { runAgent } = await import('../../src/agent/run-agent');
		const controller = new AbortController();
		const tracker = { running: 0, maxRunning: 0, finished: [] as string[] };
		const { server, callModel } = await start(() =>
			toolCallReply([{ id: 'a1', name: 'wait_echo', arguments: { label: 'x', ms: 30 } }]),
		);
		const tools = [delayTool(tracker)];
		const run = runAgent({
			input: { config: { model: 'm' }, prompt: 'p' },
			tools,
			callModel,
			signal: controller.signal,
			onEvent: (event) => {
				if (event.type === 'step-start') controller.abort();
			},
		});
		const error = await run.catch((caught: unknown) => caught);
		expect(error).toMatchObject({ code: 'AGENT_ABORTED', reason: 'aborted' });
		expect((error as AgentStoppedError).steps).toHaveLength(1);
		expect(server.requests).toHaveLength(1);
	});

	it('stops with reason "aborted" when the signal fires during the model stream', async () => {
		const { runAgent } = await import('../../src/agent/run-agent');
		const controller = new AbortController();
		const { callModel } = await start(() => ({
			...textReply('never finished'),
			stallAfterChunks: 2,
		}));
		const run = runAgent({
			input: { config: { model: 'm' }, prompt: 'p' },
			tools: [],
			callModel,
			signal: controller.signal,
			onEvent: (event) => {
				if (event.type === 'text-delta') controller.abort();
			},
		});
		await expect(run).rejects.toMatchObject({ code: 'AGENT_ABORTED' });
	});
});
