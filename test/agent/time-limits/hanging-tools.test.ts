/**
 * Time limits that hold while a tool hangs: the defaults a run gets when it sets nothing, the
 * whole-run limit and an aborted signal ending the run at the deadline (not when the tool
 * returns), in the loop, validator mode and nested agents. The tool's work gets an aborted
 * signal; a tool that ignores it is abandoned, its late result never applied, never success.
 *
 * Fake timers drive the clock (only timers and Date: stream machinery keeps its scheduling),
 * so "at the deadline" is checked exactly, with no wall-clock numbers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentState } from '../../../src/agent/agent-state';
import type { AgentStoppedError } from '../../../src/agent/agent-stopped-error';
import type { CallModel } from '../../../src/agent/call-model-step';
import { createChatModelCaller } from '../../../src/agent/create-chat-model-caller';
import { runValidator } from '../../../src/agent/modes/validator/run-validator';
import type { ValidatorError } from '../../../src/agent/modes/validator/validator-error';
import { runAgent } from '../../../src/agent/run-agent';
import {
	defaultRunTimeLimits,
	resolveRunTimeLimits,
} from '../../../src/agent/time-limits/default-time-limits';
import type { AssistantTurn } from '../../../src/chat/types';
import type { AgentTool, ToolInvokeOptions, ToolObservation } from '../../../src/tools/agent-tool';
import { readLoopOptions } from '../../../src/node-settings/read-loop-options';
import { readModelOptions } from '../../../src/node-settings/read-model-options';
import { readAgentNodeSettings } from '../../../src/hosts/n8n/item-run/read-agent-node-settings';
import { defaultChatTimeLimits, resolveChatTimeLimits } from '../../../src/chat/chat-time-limits';
import type { IExecuteFunctions } from 'n8n-workflow';
import { textReply, toolCallReply } from '../../support/fake-chat-server';
import { fakeChatServerPerTest } from '../../support/fake-chat-server-hooks';

const parameters = {
	type: 'object',
	properties: { text: { type: 'string' } },
	required: ['text'],
	additionalProperties: false,
} as const;

/** A tool that answers after `ms` (never, without `ms`), whatever its signal says; it records every call and the signal it got. */
function slowTool(ms?: number) {
	const record = { invocations: 0, returned: 0, signals: [] as Array<AbortSignal | undefined> };
	const tool: AgentTool = {
		name: 'slow',
		description: 'Takes its time',
		parameters: parameters as never,
		invoke: (_args, options: ToolInvokeOptions) => {
			record.invocations += 1;
			record.signals.push(options.signal);
			return new Promise<ToolObservation>((resolve) => {
				if (ms === undefined) return;
				setTimeout(() => {
					record.returned += 1;
					resolve({ content: 'slow result', isError: false });
				}, ms);
			});
		},
	};
	return { tool, record };
}

function turn(partial: Partial<AssistantTurn>): AssistantTurn {
	return {
		text: '',
		reasoning: '',
		reasoningDetails: [],
		toolCalls: [],
		finishReason: 'stop',
		rawFinishReason: 'stop',
		...partial,
	};
}

/** A model that calls `slow` (as many calls as `ids`) until it has a tool result, then answers. */
function scriptedModel(ids: string[] = ['c1']): CallModel & { calls: number } {
	const call: CallModel = async (request) => {
		model.calls += 1;
		if (request.messages.some((message) => message.role === 'tool'))
			return turn({ text: 'answered' });
		return turn({
			finishReason: 'tool-calls',
			rawFinishReason: 'tool_calls',
			toolCalls: ids.map((id) => ({
				toolCallId: id,
				name: 'slow',
				argumentsText: '{"text":"x"}',
				arguments: { text: 'x' },
			})),
		});
	};
	const model = Object.assign(call, { calls: 0 });
	return model;
}

/** The promise's outcome so far, without waiting for it. */
function watch<T>(promise: Promise<T>): { settled: () => boolean; outcome: Promise<T | unknown> } {
	let done = false;
	const outcome = promise.then(
		(value) => ((done = true), value),
		(error: unknown) => ((done = true), error),
	);
	return { settled: () => done, outcome };
}

const input = { config: { model: 'm' }, prompt: 'go' };

describe('defaults when no time option is given', () => {
	it('a run gets tool 120 s and run 600 s; 0 switches one off', () => {
		expect(resolveRunTimeLimits({})).toEqual({ toolTimeoutMs: 120_000, runTimeoutMs: 600_000 });
		expect(resolveRunTimeLimits({})).toEqual(defaultRunTimeLimits);
		expect(resolveRunTimeLimits({ toolTimeoutMs: 0, runTimeoutMs: 0 })).toEqual({
			toolTimeoutMs: 0,
			runTimeoutMs: 0,
		});
		expect(resolveRunTimeLimits({ toolTimeoutMs: 5_000 })).toEqual({
			toolTimeoutMs: 5_000,
			runTimeoutMs: 600_000,
		});
	});

	it('the node leaves absent options absent (the defaults apply) and passes 0 on as "no limit"', () => {
		const limits = (options: Record<string, number>) => {
			const { connection } = readModelOptions(options);
			const loop = readLoopOptions(options);
			return {
				toolTimeoutMs: loop.toolTimeoutMs,
				runTimeoutMs: loop.runTimeoutMs,
				firstTokenTimeoutMs: connection.firstTokenTimeoutMs,
				stallTimeoutMs: connection.stallTimeoutMs,
			};
		};
		expect(limits({})).toEqual({
			toolTimeoutMs: undefined,
			runTimeoutMs: undefined,
			firstTokenTimeoutMs: undefined,
			stallTimeoutMs: undefined,
		});
		expect(
			limits({ toolTimeout: 0, runTimeout: 0, firstTokenTimeout: 0, stallTimeout: 0 }),
		).toEqual({
			toolTimeoutMs: 0,
			runTimeoutMs: 0,
			firstTokenTimeoutMs: 0,
			stallTimeoutMs: 0,
		});
		expect(limits({ toolTimeout: 7, runTimeout: 90 })).toMatchObject({
			toolTimeoutMs: 7_000,
			runTimeoutMs: 90_000,
		});
	});

	it('the node with no time option added runs with every default; "Timeout" sets the model call total', async () => {
		const context = (options: object) =>
			({
				getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) =>
					name === 'options' ? options : name === 'model' ? 'm' : fallback,
				getCredentials: async () => ({ apiKey: 'sk-test-key', url: 'http://127.0.0.1:1/v1' }),
			}) as unknown as IExecuteFunctions;
		const plain = await readAgentNodeSettings(context({}), 0);
		// What runAgent and the chat client then resolve: every default.
		expect(resolveRunTimeLimits(plain)).toEqual(defaultRunTimeLimits);
		expect(resolveChatTimeLimits(plain.connection!)).toEqual(defaultChatTimeLimits);

		const set = await readAgentNodeSettings(
			context({
				timeout: 45,
				toolTimeout: 0,
				runTimeout: 0,
				stallTimeout: 0,
				firstTokenTimeout: 0,
			}),
			0,
		);
		expect(resolveRunTimeLimits(set)).toEqual({ toolTimeoutMs: 0, runTimeoutMs: 0 });
		expect(resolveChatTimeLimits(set.connection!)).toEqual({
			timeoutMs: 45_000,
			totalTimeoutMs: 45_000,
			firstTokenTimeoutMs: 0,
			stallTimeoutMs: 0,
		});
	});
});

describe('fake clock', () => {
	beforeEach(() => {
		vi.useFakeTimers({
			toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
		});
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	describe('defaults applied by runAgent and runValidator', () => {
		it('runAgent without toolTimeoutMs stops a hanging tool after 120 s and the model reads why', async () => {
			const { tool, record } = slowTool();
			const run = watch(runAgent({ input, tools: [tool], callModel: scriptedModel() }));
			await vi.advanceTimersByTimeAsync(119_999);
			expect(run.settled()).toBe(false);
			await vi.advanceTimersByTimeAsync(1);
			const { result } = (await run.outcome) as Awaited<ReturnType<typeof runAgent>>;
			expect(result.output).toBe('answered');
			expect(result.steps[0]).toMatchObject({
				isError: true,
				result: expect.stringContaining("Tool 'slow' did not finish within 120 s and was stopped"),
			});
			expect(record.signals[0]?.aborted).toBe(true);
		});

		it('runAgent without runTimeoutMs stops at 600 s while a tool hangs', async () => {
			const { tool, record } = slowTool();
			const run = watch(
				runAgent({ input, tools: [tool], callModel: scriptedModel(), toolTimeoutMs: 0 }),
			);
			await vi.advanceTimersByTimeAsync(599_999);
			expect(run.settled()).toBe(false);
			await vi.advanceTimersByTimeAsync(1);
			expect(run.settled()).toBe(true);
			expect(await run.outcome).toMatchObject({
				code: 'AGENT_ABORTED',
				message: 'The agent stopped: aborted (the whole run exceeded its time limit of 600 s).',
			});
			expect(record.signals[0]?.aborted).toBe(true);
		});

		it('runValidator without time options: tool 120 s (a tool error), run 600 s (aborted)', async () => {
			const validatorInput = { config: { model: 'm', toolName: 'slow' }, prompt: 'go' };
			const toolLimit = watch(
				runValidator({
					input: validatorInput,
					tools: [slowTool().tool],
					callModel: scriptedModel(),
				}),
			);
			await vi.advanceTimersByTimeAsync(120_000);
			expect(await toolLimit.outcome).toMatchObject({
				reason: 'tool-error',
				message: expect.stringContaining('did not finish within 120 s'),
			});

			const runLimit = watch(
				runValidator({
					input: validatorInput,
					tools: [slowTool().tool],
					callModel: scriptedModel(),
					toolTimeoutMs: 0,
				}),
			);
			await vi.advanceTimersByTimeAsync(600_000);
			expect(await runLimit.outcome).toMatchObject({
				reason: 'aborted',
				message: 'The validator stopped: aborted (the whole run exceeded its time limit of 600 s).',
			});
		});
	});

	// Both ways a tool runs: raced by the run itself (no tool limit), and inside the tool-limit wrapper.
	describe.each([
		['no tool limit', 0],
		['the default tool limit', undefined],
	])(
		'the whole-run limit and an aborted signal while a tool hangs (the tool would return after 6 s; %s)',
		(_label, toolTimeoutMs) => {
			it('runTimeoutMs ends the run at the deadline; the late result is dropped and nothing runs twice', async () => {
				const { tool, record } = slowTool(6_000);
				const model = scriptedModel(['c1', 'c2']);
				const states: AgentState[] = [];
				const run = watch(
					runAgent({
						input,
						tools: [tool],
						callModel: model,
						runTimeoutMs: 1_000,
						toolTimeoutMs,
						concurrency: 1,
						onState: (state) => states.push(state),
					}),
				);
				await vi.advanceTimersByTimeAsync(999);
				expect(run.settled()).toBe(false);
				await vi.advanceTimersByTimeAsync(1);
				expect(run.settled()).toBe(true);
				expect(record.returned).toBe(0);
				const error = (await run.outcome) as AgentStoppedError;
				expect(error).toMatchObject({
					code: 'AGENT_ABORTED',
					message: 'The agent stopped: aborted (the whole run exceeded its time limit of 1 s).',
				});
				// Both calls answered as stopped (the second never started); neither is a success.
				expect(error.steps.map((step) => [step.toolCallId, step.isError, step.result])).toEqual([
					[
						'c1',
						true,
						"Tool 'slow' was stopped before it finished: aborted (the whole run exceeded its time limit of 1 s).",
					],
					[
						'c2',
						true,
						"Tool 'slow' was stopped before it finished: aborted (the whole run exceeded its time limit of 1 s).",
					],
				]);
				expect(record.invocations).toBe(1);
				expect(record.signals[0]?.aborted).toBe(true);
				const finalState = states.at(-1);
				expect(finalState).toMatchObject({ status: 'failed', failure: { code: 'aborted' } });

				// The tool returns later: its result goes nowhere.
				await vi.advanceTimersByTimeAsync(6_000);
				expect(record.returned).toBe(1);
				expect(states.at(-1)).toBe(finalState);
				expect(JSON.stringify(finalState)).not.toContain('slow result');
				expect(model.calls).toBe(1);
				expect(record.invocations).toBe(1);
			});

			it('an aborted signal ends the run at once; the tool gets an aborted signal', async () => {
				const { tool, record } = slowTool(6_000);
				const controller = new AbortController();
				const run = watch(
					runAgent({
						input,
						tools: [tool],
						callModel: scriptedModel(),
						signal: controller.signal,
						toolTimeoutMs,
					}),
				);
				await vi.advanceTimersByTimeAsync(500);
				expect(record.invocations).toBe(1);
				controller.abort();
				await vi.advanceTimersByTimeAsync(0);
				expect(run.settled()).toBe(true);
				expect(await run.outcome).toMatchObject({
					code: 'AGENT_ABORTED',
					message: 'The agent stopped: the run was aborted.',
				});
				expect(record.signals[0]?.aborted).toBe(true);
				expect(record.returned).toBe(0);
			});

			it('validator mode: the run limit ends the validator while its one tool run hangs; the late result is dropped', async () => {
				const { tool, record } = slowTool(6_000);
				const run = watch(
					runValidator({
						input: { config: { model: 'm', toolName: 'slow' }, prompt: 'go' },
						tools: [tool],
						callModel: scriptedModel(),
						runTimeoutMs: 1_000,
						toolTimeoutMs,
					}),
				);
				await vi.advanceTimersByTimeAsync(1_000);
				expect(run.settled()).toBe(true);
				const error = (await run.outcome) as ValidatorError;
				expect(error).toMatchObject({
					code: 'VALIDATOR_ABORTED',
					message: 'The validator stopped: aborted (the whole run exceeded its time limit of 1 s).',
				});
				expect(record.signals[0]?.aborted).toBe(true);
				await vi.advanceTimersByTimeAsync(6_000);
				expect(record).toMatchObject({ invocations: 1, returned: 1 });
			});

			it('validator mode: an aborted signal ends it at once', async () => {
				const { tool, record } = slowTool(6_000);
				const controller = new AbortController();
				const run = watch(
					runValidator({
						input: { config: { model: 'm', toolName: 'slow' }, prompt: 'go' },
						tools: [tool],
						callModel: scriptedModel(),
						signal: controller.signal,
						toolTimeoutMs,
					}),
				);
				await vi.advanceTimersByTimeAsync(100);
				controller.abort();
				await vi.advanceTimersByTimeAsync(0);
				expect(await run.outcome).toMatchObject({ code: 'VALIDATOR_ABORTED' });
				expect(record.signals[0]?.aborted).toBe(true);
			});

			it('nested agents: the parent limit ends the parent and the child (whose own tool hangs) at the deadline', async () => {
				const grandchildTool = slowTool(6_000);
				let childRun: ReturnType<typeof watch> | undefined;
				// An agent that is a tool of another agent: its run gets the tool call's signal, as nested agents do.
				const childAgent: AgentTool = {
					name: 'slow',
					description: 'A nested agent',
					parameters: parameters as never,
					invoke: async (_args, options) => {
						const run = runAgent({
							input,
							tools: [grandchildTool.tool],
							callModel: scriptedModel(),
							signal: options.signal,
							toolTimeoutMs,
						});
						childRun = watch(run);
						const { result } = await run;
						return { content: result.output, isError: false };
					},
				};
				const parent = watch(
					runAgent({
						input,
						tools: [childAgent],
						callModel: scriptedModel(),
						runTimeoutMs: 1_000,
						toolTimeoutMs,
					}),
				);
				await vi.advanceTimersByTimeAsync(1_000);
				expect(parent.settled()).toBe(true);
				expect(await parent.outcome).toMatchObject({
					code: 'AGENT_ABORTED',
					message: expect.stringContaining('exceeded its time limit of 1 s'),
				});
				await vi.advanceTimersByTimeAsync(0);
				expect(childRun?.settled()).toBe(true);
				expect(await childRun?.outcome).toMatchObject({ code: 'AGENT_ABORTED' });
				expect(grandchildTool.record.signals[0]?.aborted).toBe(true);
				expect(grandchildTool.record.returned).toBe(0);
			});

			it('a tool that rejects when its signal aborts is still reported as stopped by the run, once', async () => {
				let calls = 0;
				const rejecting: AgentTool = {
					...slowTool().tool,
					invoke: (_args, options) => {
						calls += 1;
						return new Promise((_resolve, reject) =>
							options.signal?.addEventListener('abort', () => reject(new Error('request aborted'))),
						);
					},
				};
				const run = watch(
					runAgent({
						input,
						tools: [rejecting],
						callModel: scriptedModel(),
						runTimeoutMs: 1_000,
						toolTimeoutMs,
					}),
				);
				await vi.advanceTimersByTimeAsync(1_000);
				const error = (await run.outcome) as AgentStoppedError;
				expect(error.steps).toHaveLength(1);
				expect(error.steps[0]).toMatchObject({
					isError: true,
					result: expect.stringContaining('was stopped before it finished'),
				});
				expect(calls).toBe(1);
			});
		},
	);
});

describe('real clock, loopback model server', () => {
	const serve = fakeChatServerPerTest();

	it('a 300 ms run limit ends the run long before a hanging tool would return, with no second model call', async () => {
		const fake = await serve(({ body }) =>
			body.messages.some((message: { role: string }) => message.role === 'tool')
				? textReply('too late')
				: toolCallReply([{ id: 'h1', name: 'slow', arguments: { text: 'x' } }]),
		);
		const { tool, record } = slowTool();
		const started = Date.now();
		const callModel = createChatModelCaller({ baseUrl: fake.baseUrl, retry: { maxRetries: 0 } });
		const error = await runAgent({
			input,
			tools: [tool],
			callModel,
			runTimeoutMs: 300,
			toolTimeoutMs: 0,
		}).catch((caught: unknown) => caught);
		expect(error).toMatchObject({
			code: 'AGENT_ABORTED',
			message: expect.stringContaining('exceeded its time limit of 0.3 s'),
		});
		expect(Date.now() - started).toBeLessThan(3_000);
		expect(fake.requests).toHaveLength(1);
		expect(record.signals[0]?.aborted).toBe(true);
	});
});
