/**
 * Properties of the tool-call accumulator on arbitrary sequences of deltas — ids, names and
 * indexes missing, empty, null, reused or arriving late: it never throws, and no argument
 * text is lost, doubled or moved to another call. Sizes are bounded (a case is a few dozen
 * deltas), so no case can run long.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ChatCompletionChunk, WireToolCallDelta } from '../../src/chat/chat-chunk';
import { StreamPartConverter } from '../../src/chat/stream-part-converter';
import {
	ToolCallAccumulator,
	type ToolCallDeltaResult,
} from '../../src/chat/tool-call-accumulator';
import { ToolbridgeError } from '../../src/errors/toolbridge-error';

/** Present with a value, present as null, or absent: what providers do with every field. */
function maybe<T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | null | undefined> {
	return fc.oneof(
		{ weight: 3, arbitrary: value },
		{ weight: 1, arbitrary: fc.constant(null) },
		{ weight: 2, arbitrary: fc.constant(undefined) },
	);
}

const ARGUMENT_PIECES = [
	'{',
	'}',
	'"',
	'"q"',
	':',
	'1',
	',',
	'{"a":1}',
	'{}',
	'[',
	']',
	'null',
	'\\',
	'\\u00e9',
	'é',
	'😀',
	' ',
];

const deltaArbitrary: fc.Arbitrary<WireToolCallDelta> = fc.record(
	{
		// Small pools so ids and indexes repeat; odd indexes (negative, fractional) too.
		index: fc.oneof(fc.nat(3), fc.constantFrom(-1, 0.5, 2 ** 31)),
		id: maybe(fc.constantFrom('a', 'b', 'c', '', 'toString', '__proto__')),
		type: fc.constantFrom('function', ''),
		function: maybe(
			fc.record(
				{
					name: maybe(fc.constantFrom('search', 'get_', 'weather', '', 'constructor')),
					arguments: maybe(
						fc.oneof(
							fc.constantFrom(...ARGUMENT_PIECES),
							fc.string({ unit: 'binary', maxLength: 4 }),
						),
					),
				},
				{ requiredKeys: [] },
			),
		),
	},
	{ requiredKeys: [] },
) as fc.Arbitrary<WireToolCallDelta>;

function run(deltas: WireToolCallDelta[]) {
	const accumulator = new ToolCallAccumulator();
	const results: ToolCallDeltaResult[] = deltas.map((delta) => accumulator.add(delta));
	return { accumulator, results, calls: accumulator.finish() };
}

describe('ToolCallAccumulator: arbitrary delta sequences', () => {
	test('never throws; every call ends with a usable id and either arguments or an error', () => {
		fc.assert(
			fc.property(fc.array(deltaArbitrary, { maxLength: 40 }), (deltas) => {
				const { accumulator, results, calls } = run(deltas);
				expect(calls).toHaveLength(accumulator.size);
				for (const result of results) expect(result.position).toBeLessThan(calls.length);
				for (const call of calls) {
					expect(typeof call.toolCallId === 'string' && call.toolCallId !== '').toBe(true);
					if (call.error === undefined) {
						expect(call.name).not.toBe('');
						expect(
							typeof call.arguments === 'object' &&
								call.arguments !== null &&
								!Array.isArray(call.arguments),
						).toBe(true);
					} else {
						expect(typeof call.error).toBe('string');
						expect(call.arguments).toBeUndefined();
					}
				}
			}),
			{ numRuns: 600 },
		);
	});

	test('no argument text is lost, doubled or moved: each call holds exactly the pieces reported for it, in order', () => {
		fc.assert(
			fc.property(fc.array(deltaArbitrary, { maxLength: 40 }), (deltas) => {
				const { results, calls } = run(deltas);
				const reported = calls.map(() => '');
				const names = calls.map(() => '');
				for (const result of results) {
					reported[result.position] += result.argumentsDelta ?? '';
					names[result.position] += result.name ?? '';
				}
				expect(calls.map((call) => call.argumentsText)).toEqual(reported);
				expect(calls.map((call) => call.name)).toEqual(names);
				// And every non-empty argument piece sent was reported once.
				const sent = deltas
					.map((delta) =>
						typeof delta.function?.arguments === 'string' ? delta.function.arguments : '',
					)
					.join('');
				expect(results.map((result) => result.argumentsDelta ?? '').join('')).toBe(sent);
			}),
			{ numRuns: 600 },
		);
	});

	test('a delta with an id lands in the call with that id; the same id always means the same call', () => {
		fc.assert(
			fc.property(fc.array(deltaArbitrary, { maxLength: 40 }), (deltas) => {
				const { results, calls } = run(deltas);
				const positionOfId = new Map<string, number>();
				deltas.forEach((delta, at) => {
					if (typeof delta.id !== 'string' || delta.id === '') return;
					const position = results[at].position;
					expect(calls[position].toolCallId).toBe(delta.id);
					expect(positionOfId.get(delta.id) ?? position).toBe(position);
					positionOfId.set(delta.id, position);
				});
			}),
			{ numRuns: 600 },
		);
	});

	test('tool_calls entries of any JSON shape in a stream: parts only, errors only ToolbridgeErrors', () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.array(
						fc.oneof(deltaArbitrary as fc.Arbitrary<unknown>, fc.jsonValue({ maxDepth: 3 })),
						{ maxLength: 4 },
					),
					{ maxLength: 10 },
				),
				(toolCallLists) => {
					const converter = new StreamPartConverter();
					// Wire data is whatever the provider sent: typed as the chunk only after the fact.
					const chunks = toolCallLists.map(
						(toolCalls) =>
							({
								choices: [{ index: 0, delta: { tool_calls: toolCalls } }],
							}) as ChatCompletionChunk,
					);
					chunks.push({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
					const parts = [
						...chunks.flatMap((chunk) => converter.push({ type: 'chunk', chunk })),
						...converter.finish(),
					];
					for (const part of parts)
						if (part.type === 'error') expect(ToolbridgeError.isInstance(part.error)).toBe(true);
					expect(parts.at(-1)?.type).toBe('finish');
				},
			),
			{ numRuns: 600 },
		);
	});
});
