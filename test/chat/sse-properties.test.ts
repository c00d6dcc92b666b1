/**
 * Properties of the stream chain (bytes → text → SSE events → chunks → parts → turn) on
 * arbitrary input: it never throws anything but a ToolbridgeError, every error part carries
 * one, and how the bytes are cut into reads (inside a multi-byte character, between CR and
 * LF …) never changes the outcome. Inputs are bounded in size, and every async case has a
 * time limit, so a case that waits forever fails instead of hanging the suite.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
	chatFixtureNames,
	frameChunksAsSse,
	loadChatFixtureChunks,
} from '../../fixtures/chat/load-chat-fixture';
import { collectTurn, TurnAssembler } from '../../src/chat/collect-turn';
import { ChatStreamParser, parseChatStream } from '../../src/chat/parse-chat-stream';
import { SseParser, type SseEvent } from '../../src/chat/parse-sse';
import type { StreamPart } from '../../src/chat/types';
import { ToolbridgeError } from '../../src/errors/toolbridge-error';

const encoder = new TextEncoder();

/** Pieces of SSE text: fields, line endings of all three kinds, comments, multi-byte characters. */
const SSE_FRAGMENTS = [
	'data:',
	'data: ',
	'event: ',
	'id: ',
	'retry: 5',
	': OPENROUTER PROCESSING',
	':',
	'\n',
	'\r',
	'\r\n',
	'\n\n',
	'\r\n\r\n',
	'[DONE]',
	'{',
	'}',
	'"',
	'\\',
	'{"choices":[',
	']}',
	'é',
	'✓',
	'😀',
	'\u2028',
	'\uFEFF',
	'\uD800',
	'x',
];

const sseText = fc
	.array(fc.oneof(fc.constantFrom(...SSE_FRAGMENTS), fc.string({ unit: 'binary', maxLength: 5 })), {
		maxLength: 60,
	})
	.map((parts) => parts.join(''));

/** Sorted cut positions inside a length-`length` input (duplicates give empty reads, which must be harmless). */
function cutsWithin(length: number): fc.Arbitrary<number[]> {
	return fc
		.array(fc.integer({ min: 0, max: length }), { maxLength: 12 })
		.map((cuts) => cuts.sort((left, right) => left - right));
}

function piecesOf<T extends { slice(start: number, end?: number): T }>(
	whole: T,
	length: number,
	cuts: number[],
): T[] {
	const pieces: T[] = [];
	let start = 0;
	for (const cut of [...cuts, length]) {
		pieces.push(whole.slice(start, cut));
		start = cut;
	}
	return pieces;
}

function sseEvents(pieces: string[]): SseEvent[] {
	const parser = new SseParser();
	return [...pieces.flatMap((piece) => parser.push(piece)), ...parser.end()];
}

/** Parts as comparable values: an error part as its class, code and message. */
function comparable(parts: StreamPart[]): unknown[] {
	return parts.map((part) =>
		part.type === 'error'
			? {
					type: 'error',
					name: part.error.name,
					code: (part.error as ToolbridgeError).code,
					message: part.error.message,
				}
			: part,
	);
}

/** Runs the synchronous chain over the reads; any throw fails the property with what was thrown. */
function parseReads(reads: Uint8Array[]): StreamPart[] {
	const parser = new ChatStreamParser();
	const parts: StreamPart[] = [];
	for (const bytes of reads) {
		parts.push(...parser.push(bytes));
		if (parser.done) break;
	}
	parts.push(...parser.end());
	for (const part of parts)
		if (part.type === 'error')
			expect(
				ToolbridgeError.isInstance(part.error),
				`error part carries ${part.error.name}: ${part.error.message}`,
			).toBe(true);
	return parts;
}

async function* asReads(reads: Uint8Array[]): AsyncGenerator<Uint8Array> {
	for (const bytes of reads) yield bytes;
}

/** collectTurn over the reads: a turn, or a ToolbridgeError (anything else fails). */
async function turnOrToolbridgeError(reads: Uint8Array[]): Promise<void> {
	try {
		await collectTurn(parseChatStream(asReads(reads)));
	} catch (error) {
		if (!ToolbridgeError.isInstance(error)) throw error;
	}
}

/** Keys that are inherited members of every object: an `in` check or a template literal trips on them. */
const TRICKY_KEYS = ['toString', 'valueOf', '__proto__', 'constructor', 'hasOwnProperty', 'toJSON'];

/** JSON values whose object keys are often inherited member names. */
const trickyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small', withCrossShrink: true },
		fc.oneof(
			fc.string({ maxLength: 6 }),
			fc.integer(),
			fc.double({ noNaN: true, noDefaultInfinity: true }),
			fc.boolean(),
			fc.constant(null),
		),
		fc.array(tie('value'), { maxLength: 4 }),
		fc.dictionary(
			fc.oneof(
				fc.constantFrom(...TRICKY_KEYS, 'message', 'code', 'index', 'id', 'type', 'text'),
				fc.string({ maxLength: 4 }),
			),
			tie('value'),
			{
				maxKeys: 4,
				noNullPrototype: true,
			},
		),
	),
})).value;

/** A value, or a well-typed one, or absent: chunk fields as providers get them right and wrong. */
function field<T>(typed: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
	return fc.oneof(typed, trickyJson, fc.constant(undefined));
}

/** Chat chunks of every shape: well-formed fields mixed with arbitrary JSON in each place. */
const chunkArbitrary = fc.record(
	{
		id: field(fc.string({ maxLength: 6 })),
		model: field(fc.string({ maxLength: 6 })),
		choices: field(
			fc.array(
				fc.record(
					{
						index: field(fc.constantFrom(0, 1)),
						delta: field(
							fc.record(
								{
									content: field(fc.string({ maxLength: 8 })),
									reasoning: field(fc.string({ maxLength: 8 })),
									reasoning_details: field(
										fc.array(
											fc.record({
												type: field(fc.constantFrom('reasoning.text', 'reasoning.summary')),
												text: field(fc.string()),
												index: field(fc.nat(2)),
											}),
											{ maxLength: 3 },
										),
									),
									tool_calls: field(
										fc.array(
											fc.record(
												{
													index: field(fc.nat(2)),
													id: field(fc.constantFrom('a', 'b', '')),
													function: field(
														fc.record({
															name: field(fc.constantFrom('f', 'g')),
															arguments: field(fc.constantFrom('{', '"x":1', '}', '{}')),
														}),
													),
												},
												{ requiredKeys: [] },
											),
											{ maxLength: 3 },
										),
									),
								},
								{ requiredKeys: [] },
							),
						),
						finish_reason: field(fc.constantFrom('stop', 'tool_calls', 'length', 'error', '')),
					},
					{ requiredKeys: [] },
				),
				{ maxLength: 2 },
			),
		),
		usage: field(
			fc.record(
				{
					prompt_tokens: field(fc.nat()),
					completion_tokens: field(fc.nat()),
					cost: field(fc.double()),
				},
				{ requiredKeys: [] },
			),
		),
		error: field(
			fc.record(
				{
					message: field(fc.string({ maxLength: 8 })),
					code: field(fc.oneof(fc.integer(), fc.string({ maxLength: 4 }))),
				},
				{ requiredKeys: [] },
			),
		),
	},
	{ requiredKeys: [] },
);

/** A chunk nested `depth` levels deep at one of the places the chain reads. */
function deeplyNested(
	place: 'error' | 'error-code' | 'usage' | 'delta' | 'reasoning-details' | 'arguments',
	depth: number,
): string {
	const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
	const finish = ',"finish_reason":"stop"';
	switch (place) {
		case 'error':
			return `{"error":{"detail":${nested}}}`;
		case 'error-code':
			return `{"error":{"message":"m","code":${nested}}}`;
		case 'usage':
			return `{"choices":[{"index":0,"delta":{}${finish}}],"usage":{"prompt_tokens_details":${nested}}}`;
		case 'delta':
			return `{"choices":[{"index":0,"delta":{"content":"a","extra":${nested}}${finish}}]}`;
		case 'reasoning-details':
			return `{"choices":[{"index":0,"delta":{"reasoning_details":[{"type":"reasoning.text","text":"t","index":0,"x":${nested}}]}${finish}}]}`;
		case 'arguments':
			return `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":${JSON.stringify(`{"a":${nested}}`)}}}]},"finish_reason":"tool_calls"}]}`;
	}
}

describe('SseParser: arbitrary text in arbitrary pieces', () => {
	test('gives the events of the whole text, whatever the cuts', () => {
		fc.assert(
			fc.property(
				sseText.chain((text) => fc.tuple(fc.constant(text), cutsWithin(text.length))),
				([text, cuts]) => {
					expect(sseEvents(piecesOf(text, text.length, cuts))).toEqual(sseEvents([text]));
				},
			),
			{ numRuns: 1500 },
		);
	});
});

describe('ChatStreamParser: arbitrary bytes in arbitrary reads', () => {
	test('recorded streams cut anywhere (inside UTF-8 characters too) give the outcome of the whole body', () => {
		const bodies = chatFixtureNames.map((name) =>
			encoder.encode(
				frameChunksAsSse(
					loadChatFixtureChunks(name).map(
						(chunk) =>
							JSON.parse(
								JSON.stringify(chunk).replace(/"content":"([^"]*)"/g, '"content":"$1é✓😀"'),
							) as object,
					),
					{ lineEnding: '\r\n' },
				),
			),
		);
		fc.assert(
			fc.property(
				fc
					.constantFrom(...bodies)
					.chain((bytes) => fc.tuple(fc.constant(bytes), cutsWithin(bytes.length))),
				([bytes, cuts]) => {
					expect(comparable(parseReads(piecesOf(bytes, bytes.length, cuts)))).toEqual(
						comparable(parseReads([bytes])),
					);
				},
			),
			{ numRuns: 400 },
		);
	});

	test('arbitrary SSE-like text: no throw, error parts carry ToolbridgeErrors, cuts change nothing', () => {
		fc.assert(
			fc.property(
				sseText
					.map((text) => encoder.encode(text))
					.chain((bytes) => fc.tuple(fc.constant(bytes), cutsWithin(bytes.length))),
				([bytes, cuts]) => {
					expect(comparable(parseReads(piecesOf(bytes, bytes.length, cuts)))).toEqual(
						comparable(parseReads([bytes])),
					);
				},
			),
			{ numRuns: 1000 },
		);
	});

	test('arbitrary bytes (invalid UTF-8 included): collectTurn gives a turn or a ToolbridgeError, never waits forever', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }),
				async (reads) => {
					parseReads(reads);
					await turnOrToolbridgeError(reads);
				},
			),
			{ numRuns: 300, timeout: 5_000 },
		);
	});

	test('chunks of any shape (inherited member names as keys): parts or ToolbridgeErrors only', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(chunkArbitrary, { maxLength: 6 }),
				fc.boolean(),
				async (chunks, done) => {
					const reads = [encoder.encode(frameChunksAsSse(chunks as object[], { done }))];
					parseReads(reads);
					await turnOrToolbridgeError(reads);
				},
			),
			{ numRuns: 600, timeout: 5_000 },
		);
	});

	test('a chunk nested arbitrarily deep anywhere the chain reads: parts or ToolbridgeErrors only', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.constantFrom(
					'error',
					'error-code',
					'usage',
					'delta',
					'reasoning-details',
					'arguments' as const,
				),
				fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 5_000, max: 60_000 })),
				async (place, depth) => {
					const reads = [encoder.encode(`data: ${deeplyNested(place, depth)}\n\ndata: [DONE]\n\n`)];
					parseReads(reads);
					await turnOrToolbridgeError(reads);
				},
			),
			{ numRuns: 40, timeout: 10_000 },
		);
	});
});

describe('regressions found by these properties', () => {
	test.each([
		// A provider error whose `code` has an own `toString` that is not a function: the message's
		// template literal threw "TypeError: Cannot convert object to primitive value".
		[
			'error code with a toString key',
			'data: {"error":{"code":{"toString":0}}}\n\n',
			'CHAT_MID_STREAM',
		],
		// An error object without a string message nested deeper than JSON.stringify's stack:
		// "RangeError: Maximum call stack size exceeded" from describing it.
		[
			'error object nested 5,000 deep',
			`data: {"error":{"detail":${'['.repeat(5_000)}${']'.repeat(5_000)}}}\n\n`,
			'CHAT_MID_STREAM',
		],
	])('%s: an error part, not a throw', (_name, body, code) => {
		const parts = parseReads([encoder.encode(body)]);
		expect(parts).toHaveLength(1);
		expect(parts[0]).toMatchObject({ type: 'error', error: { code } });
	});
});

describe('regressions found by the properties above', () => {
	test('a reasoning_details entry whose type is not a string: a turn, not a TypeError', () => {
		const turn = new TurnAssembler();
		expect(() =>
			turn.add({
				type: 'reasoning-details',
				details: [{ type: [{ toString: 0 }], text: null, index: 0 } as never],
			}),
		).not.toThrow();
	});
});
