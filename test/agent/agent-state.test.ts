import { describe, expect, it } from 'vitest';
import type { AssistantTurn } from '../../src/chat/types';
import { applyModelTurn } from '../../src/agent/apply-model-turn';
import { applyToolResults } from '../../src/agent/apply-tool-results';
import { canonicalJson } from '../../src/agent/canonical-json';
import { createAgentState } from '../../src/agent/create-agent-state';
import { nextAction } from '../../src/agent/next-action';
import { abortAgent } from '../../src/agent/stop-agent';
import { AgentConfigurationError } from '../../src/errors/agent-configuration-error';
import { AgentStateError } from '../../src/errors/agent-state-error';

const addSpec = {
	name: 'add',
	description: 'Adds',
	parameters: { type: 'object', properties: { a: { type: 'number' } } },
	sourceNodeName: 'Add Node',
};

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

describe('agent state machine', () => {
	it('is plain JSON at every step and resumes from the copy', () => {
		let state = createAgentState({ config: { model: 'm' }, tools: [addSpec], prompt: 'p' });
		const roundTrip = () => {
			const copy = JSON.parse(JSON.stringify(state));
			expect(copy).toEqual(state);
			state = copy;
		};
		roundTrip();
		state = applyModelTurn(
			state,
			turn({
				toolCalls: [
					{ toolCallId: 'c1', name: 'add', argumentsText: '{"a":1}', arguments: { a: 1 } },
				],
				reasoningDetails: [{ type: 'reasoning.encrypted', data: 'opaque==', index: 0 }],
				finishReason: 'tool-calls',
				usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7, cost: 0.01 },
			}),
		);
		roundTrip();
		const action = nextAction(state);
		expect(action).toEqual({
			type: 'run-tools',
			calls: [{ toolCallId: 'c1', name: 'add', arguments: { a: 1 }, sourceNodeName: 'Add Node' }],
		});
		state = applyToolResults(state, [
			{
				toolCallId: 'c1',
				observation: { content: '1', isError: false, data: { sum: 1 } },
				durationMs: 3,
			},
		]);
		roundTrip();
		state = applyModelTurn(
			state,
			turn({
				text: 'one',
				usage: { promptTokens: 9, completionTokens: 1, totalTokens: 10, cost: 0.02 },
			}),
		);
		roundTrip();
		const done = nextAction(state);
		expect(done.type).toBe('done');
		if (done.type !== 'done') return;
		expect(done.result).toMatchObject({
			output: 'one',
			iterations: 2,
			stopReason: 'answer',
			usage: { promptTokens: 14, totalTokens: 17 },
		});
		expect(done.result.usage.cost).toBeCloseTo(0.03);
		expect(done.result.steps[0]).toMatchObject({ data: { sum: 1 }, durationMs: 3 });
	});

	it('refuses transitions that do not fit the status', () => {
		const state = createAgentState({ config: { model: 'm' }, tools: [], prompt: 'p' });
		expect(() => applyToolResults(state, [])).toThrow(AgentStateError);
		const finished = applyModelTurn(state, turn({ text: 'x' }));
		expect(() => applyModelTurn(finished, turn({ text: 'y' }))).toThrow(
			/needs a state in ready or final-call or output-call; this one is done/,
		);
	});

	it('fills a lost tool result with an error observation so the history stays valid', () => {
		let state = createAgentState({ config: { model: 'm' }, tools: [addSpec], prompt: 'p' });
		state = applyModelTurn(
			state,
			turn({ toolCalls: [{ toolCallId: 'c1', name: 'add', argumentsText: '{}', arguments: {} }] }),
		);
		state = applyToolResults(state, []);
		expect(state.messages.at(-1)).toEqual({
			role: 'tool',
			tool_call_id: 'c1',
			content: "No result came back for this call of 'add'.",
		});
		expect(state.status).toBe('ready');
	});

	it('aborts an unfinished run and leaves a finished one alone', () => {
		const state = createAgentState({ config: { model: 'm' }, tools: [], prompt: 'p' });
		const aborted = abortAgent(state);
		expect(nextAction(aborted)).toMatchObject({ type: 'failed', error: { code: 'AGENT_ABORTED' } });
		const finished = applyModelTurn(state, turn({ text: 'x' }));
		expect(abortAgent(finished)).toBe(finished);
	});

	it.each([
		[{ config: { model: ' ' }, tools: [], prompt: 'p' }, /model is empty/],
		[{ config: { model: 'm' }, tools: [], prompt: '  ' }, /prompt is empty/],
		[
			{ config: { model: 'm', maxIterations: 0 }, tools: [], prompt: 'p' },
			/maxIterations must be an integer of at least 1; found 0/,
		],
		[
			{ config: { model: 'm' }, tools: [addSpec, addSpec], prompt: 'p' },
			/Two connected tools are named 'add'/,
		],
	])('rejects bad input %#', (input, message) => {
		expect(() => createAgentState(input)).toThrow(AgentConfigurationError);
		expect(() => createAgentState(input)).toThrow(message);
	});

	it('drops orphaned tool messages and unanswered calls from the history', () => {
		const state = createAgentState({
			config: { model: 'm', systemMessage: 'sys' },
			tools: [],
			prompt: 'now',
			history: [
				{ role: 'tool', tool_call_id: 'cut', content: 'orphan from a trimmed window' },
				{ role: 'user', content: 'q1' },
				{
					role: 'assistant',
					content: null,
					tool_calls: [
						{ id: 'ok', type: 'function', function: { name: 'a', arguments: '{}' } },
						{ id: 'lost', type: 'function', function: { name: 'b', arguments: '{}' } },
					],
				},
				{ role: 'tool', tool_call_id: 'ok', content: 'r' },
				{ role: 'assistant', content: 'answer 1' },
				{ role: 'user', content: 'q2' },
				{
					role: 'assistant',
					content: null,
					tool_calls: [{ id: 'never', type: 'function', function: { name: 'a', arguments: '{}' } }],
				},
			],
		});
		expect(state.messages).toEqual([
			{ role: 'system', content: 'sys' },
			{ role: 'user', content: 'q1' },
			{
				role: 'assistant',
				content: null,
				tool_calls: [{ id: 'ok', type: 'function', function: { name: 'a', arguments: '{}' } }],
			},
			{ role: 'tool', tool_call_id: 'ok', content: 'r' },
			{ role: 'assistant', content: 'answer 1' },
			{ role: 'user', content: 'q2' },
			{ role: 'user', content: 'now' },
		]);
		expect(state.turnStart).toBe(6);
	});

	it('canonicalizes arguments regardless of key order', () => {
		expect(canonicalJson({ b: [{ y: 1, x: 2 }], a: 1 })).toBe(
			canonicalJson({ a: 1, b: [{ x: 2, y: 1 }] }),
		);
		expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
	});

	it.each([
		{ b: [{ y: 1, x: 'two "quoted" \u00e9' }], a: null, c: { e: [true, false, 1.5e-7], d: {} } },
		[1, 'x', { z: [], y: [[]] }],
		'text',
		42,
		null,
		{ nested: { deeper: { deepest: [{ k: 'v', j: -0 }] } } },
	])('is JSON.stringify of the key-sorted value: %j', (value) => {
		const sortKeys = (entry: unknown): unknown =>
			Array.isArray(entry)
				? entry.map(sortKeys)
				: entry !== null && typeof entry === 'object'
					? Object.fromEntries(
							Object.keys(entry)
								.sort()
								.map((key) => [key, sortKeys((entry as Record<string, unknown>)[key])]),
						)
					: entry;
		expect(canonicalJson(value)).toBe(JSON.stringify(sortKeys(value)));
	});

	it('takes arguments nested 20,000 deep (from the model) without a stack overflow, key order still ignored', () => {
		const deep = (order: 'ab' | 'ba') => {
			let value: unknown = 'leaf';
			for (let depth = 0; depth < 20_000; depth++)
				value = order === 'ab' ? { a: value, b: depth } : { b: depth, a: value };
			return value;
		};
		const text = canonicalJson(deep('ab'));
		expect(text).toBe(canonicalJson(deep('ba')));
		expect(text.startsWith('{"a":{"a":')).toBe(true);
		expect(text.length).toBeGreaterThan(200_000);
	});
});
