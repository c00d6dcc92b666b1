import { describe, expect, it } from 'vitest';
import type { WireToolCallDelta } from '../../src/chat/chat-chunk';
import { ToolCallAccumulator } from '../../src/chat/tool-call-accumulator';

function assemble(deltas: WireToolCallDelta[]) {
	const accumulator = new ToolCallAccumulator();
	for (const delta of deltas) accumulator.add(delta);
	return accumulator
		.finish()
		.map(({ toolCallId: id, name, arguments: args, error }) =>
			error ? { id, name, error: error.replace(/ at position.*/, '') } : { id, name, args },
		);
}

describe('ToolCallAccumulator', () => {
	it.each<[string, WireToolCallDelta[], object[]]>([
		[
			'by index, arguments in pieces',
			[
				{ index: 0, id: 'a', function: { name: 'f', arguments: '' } },
				{ index: 0, function: { arguments: '{"x"' } },
				{ index: 0, function: { arguments: ':1}' } },
			],
			[{ id: 'a', name: 'f', args: { x: 1 } }],
		],
		[
			'by id when the index is missing on later deltas',
			[
				{ id: 'a', function: { name: 'f' } },
				{ id: 'b', function: { name: 'g' } },
				{ id: 'a', function: { arguments: '{"x":1}' } },
				{ id: 'b', function: { arguments: '{"y":2}' } },
			],
			[
				{ id: 'a', name: 'f', args: { x: 1 } },
				{ id: 'b', name: 'g', args: { y: 2 } },
			],
		],
		[
			'by latest when neither id nor index comes',
			[
				{ id: 'a', function: { name: 'f' } },
				{ function: { arguments: '{"x":' } },
				{ function: { arguments: '2}' } },
			],
			[{ id: 'a', name: 'f', args: { x: 2 } }],
		],
		[
			'index reused with distinct ids: two calls; id-less deltas go to the latest at that index',
			[
				{ index: 0, id: 'a', function: { name: 'f' } },
				{ index: 0, function: { arguments: '{}' } },
				{ index: 0, id: 'b', function: { name: 'g' } },
				{ index: 0, function: { arguments: '{"z":3}' } },
			],
			[
				{ id: 'a', name: 'f', args: {} },
				{ id: 'b', name: 'g', args: { z: 3 } },
			],
		],
		[
			'name arriving after the arguments',
			[
				{ index: 0, id: 'a', function: { arguments: '{"q":"x"}' } },
				{ index: 0, function: { name: 'search' } },
			],
			[{ id: 'a', name: 'search', args: { q: 'x' } }],
		],
		[
			'id arriving after the first delta keeps one call',
			[
				{ index: 0, function: { name: 'f', arguments: '{"a"' } },
				{ index: 0, id: 'late', function: { arguments: ':1}' } },
			],
			[{ id: 'late', name: 'f', args: { a: 1 } }],
		],
		[
			'a name repeated on every delta is not doubled',
			[
				{ index: 0, id: 'a', function: { name: 'f', arguments: '{' } },
				{ index: 0, id: 'a', function: { name: 'f', arguments: '}' } },
			],
			[{ id: 'a', name: 'f', args: {} }],
		],
		[
			'no id at all: a generated, stable id',
			[{ index: 0, function: { name: 'f', arguments: '{}' } }],
			[{ id: 'toolbridge_call_0', name: 'f', args: {} }],
		],
		[
			'arguments absent → {}',
			[{ index: 0, id: 'a', function: { name: 'f' } }],
			[{ id: 'a', name: 'f', args: {} }],
		],
		[
			'null arguments and null id tolerated',
			[{ index: 0, id: null, function: { name: 'f', arguments: null } }],
			[{ id: 'toolbridge_call_0', name: 'f', args: {} }],
		],
		[
			'two objects run together → one call with an error',
			[
				{ index: 0, id: 'a', function: { name: 'f', arguments: '{"x":1}' } },
				{ index: 0, function: { arguments: '{"x":2}' } },
			],
			[
				{
					id: 'a',
					name: 'f',
					error:
						"Arguments of tool call 'f' (a) could not be used. Tool arguments are not one JSON object: two JSON values run together (a second object starts here)",
				},
			],
		],
		[
			'arguments that are an array → error',
			[{ index: 0, id: 'a', function: { name: 'f', arguments: '[1,2]' } }],
			[
				{
					id: 'a',
					name: 'f',
					error:
						"Arguments of tool call 'f' (a) could not be used. Tool arguments are not one JSON object: expected a JSON object, found an array",
				},
			],
		],
		[
			'a call that never got a name → error',
			[{ index: 0, id: 'a', function: { arguments: '{}' } }],
			[
				{
					id: 'a',
					name: '',
					error: 'Tool call a has no function name; the model sent only its arguments.',
				},
			],
		],
	])('%s', (_name, deltas, expected) => {
		expect(assemble(deltas)).toEqual(expected);
	});

	it('reports each delta with the call position, not the wire index', () => {
		const accumulator = new ToolCallAccumulator();
		expect(accumulator.add({ index: 0, id: 'a', function: { name: 'f', arguments: '' } })).toEqual({
			position: 0,
			id: 'a',
			name: 'f',
		});
		expect(accumulator.add({ index: 0, id: 'b', function: { name: 'g' } })).toEqual({
			position: 1,
			id: 'b',
			name: 'g',
		});
		expect(accumulator.add({ index: 0, function: { arguments: '{}' } })).toEqual({
			position: 1,
			argumentsDelta: '{}',
		});
	});
});
