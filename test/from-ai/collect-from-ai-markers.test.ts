import { describe, expect, test } from 'vitest';
import { traverseNodeParameters, type FromAIArgument } from 'n8n-workflow';
import { FromAIError } from '../../src/errors/from-ai-error';
import { collectFromAIMarkers } from '../../src/from-ai/collect-from-ai-markers';
import { buildSyntheticNode } from '../../fixtures/from-ai/synthetic-node';
import slackNode from '../../fixtures/from-ai/slack-node.json';

describe('collectFromAIMarkers: the walk', () => {
	test.each([
		['top level', { text: "={{ $fromAI('a') }}" }, [['a', 'text', ['text']]]],
		[
			'nested object',
			{ options: { extra: "={{ $fromAI('a') }}" } },
			[['a', 'options.extra', ['options', 'extra']]],
		],
		['array', { list: ['x', "={{ $fromAI('a') }}"] }, [['a', 'list[1]', ['list', 1]]]],
		[
			'fixedCollection',
			{ options: { fields: [{ name: 'n', value: "={{ $fromAI('a') }}" }] } },
			[['a', 'options.fields[0].value', ['options', 'fields', 0, 'value']]],
		],
		[
			'resource locator',
			{ channelId: { __rl: true, mode: 'id', value: "={{ $fromAI('channel') }}" } },
			[['channel', 'channelId.value', ['channelId', 'value']]],
		],
		[
			'odd key names',
			{ 'my key': { 'a.b': "={{ $fromAI('a') }}" } },
			[['a', '["my key"]["a.b"]', ['my key', 'a.b']]],
		],
		[
			'a numeric object key stays a string',
			{ map: { 0: "={{ $fromAI('a') }}" } },
			[['a', 'map["0"]', ['map', '0']]],
		],
		['string without = is literal', { text: "{{ $fromAI('a') }}" }, []],
		[
			'numbers, booleans, null are ignored',
			{ n: 1, b: true, z: null, s: "={{ $fromAI('a') }}" },
			[['a', 's', ['s']]],
		],
		[
			'in order of parameters',
			{ b: "={{ $fromAI('b') }}", a: ["={{ $fromAI('a1') }} {{ $fromAI('a2') }}"] },
			[
				['b', 'b', ['b']],
				['a1', 'a[0]', ['a', 0]],
				['a2', 'a[0]', ['a', 0]],
			],
		],
	])('%s', (_name, parameters, expected) => {
		const { markers, errors } = collectFromAIMarkers(parameters);
		expect(errors).toEqual([]);
		expect(markers.map((marker) => [marker.key, marker.path, marker.segments])).toEqual(expected);
	});

	test('every error is collected, with node, path and position in the message', () => {
		const { markers, errors } = collectFromAIMarkers(
			{
				good: "={{ $fromAI('ok') }}",
				options: {
					fields: [
						{ value: "={{ $FROMAI('a') }}" },
						{ value: "={{ $fromAI('b', x) + $fromAI('c', '', 'integer') }}" },
					],
				},
				unquoted: '={{ $fromAI(key) }}',
			},
			{ nodeName: 'Send Mail' },
		);
		expect(markers.map((marker) => marker.key)).toEqual(['ok']);
		expect(errors.map((error) => [error.code, error.path, error.index])).toEqual([
			['FROM_AI_WRONG_CASE', 'options.fields[0].value', 4],
			['FROM_AI_DESCRIPTION_NOT_LITERAL', 'options.fields[1].value', 17],
			['FROM_AI_INVALID_TYPE', 'options.fields[1].value', 39],
			['FROM_AI_KEY_NOT_LITERAL', 'unquoted', 12],
		]);
		for (const error of errors) {
			expect(error).toBeInstanceOf(FromAIError);
			expect(error.nodeName).toBe('Send Mail');
			expect(error.message).toMatch(
				new RegExp(
					`^Node 'Send Mail', parameter '${error.path?.replace(/[[\]]/g, '\\$&')}', position ${error.index}: `,
				),
			);
		}
	});

	test('a cycle in a hand-built object does not loop forever', () => {
		const parameters: Record<string, unknown> = { a: "={{ $fromAI('a') }}" };
		parameters.self = parameters;
		const { markers } = collectFromAIMarkers(parameters);
		expect(markers.length).toBeGreaterThan(0);
		expect(markers[0].key).toBe('a');
	});
});

describe('collectFromAIMarkers agrees with n8n on real workflow parameters', () => {
	function n8nKeys(parameters: unknown): string[] {
		const collected: FromAIArgument[] = [];
		traverseNodeParameters(parameters as never, collected);
		return collected.map((argument) => argument.key);
	}

	test('a Slack node exported from n8n (fixture)', () => {
		const { markers, errors } = collectFromAIMarkers(slackNode.parameters, {
			nodeName: slackNode.name,
		});
		expect(errors).toEqual([]);
		expect(markers.map((marker) => marker.key)).toEqual(n8nKeys(slackNode.parameters));
		expect(markers.map((marker) => marker.path)).toEqual([
			'channelId.value',
			'text',
			'otherOptions.thread_ts.replyValues.thread_ts',
		]);
	});

	test('the synthetic bench node', () => {
		const node = buildSyntheticNode();
		const { markers, errors } = collectFromAIMarkers(node.parameters);
		expect(errors).toEqual([]);
		expect(markers).toHaveLength(50);
		expect(markers.map((marker) => marker.key)).toEqual(n8nKeys(node.parameters));
	});
});
