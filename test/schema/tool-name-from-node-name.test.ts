import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { nodeNameToToolName } from 'n8n-workflow';
import {
	nodeNameToN8nToolName,
	toolNameFromNodeName,
} from '../../src/schema/tool-name-from-node-name';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

const NAMES = [
	'Slack',
	'Date & Time',
	'Café Ñandú',
	'a _ b',
	'HTTP Request',
	'Send e-mail (v2)',
	'Größe',
	'Łódź Ærø',
	'node.with.dots',
	'  padded  ',
	'日本語のノード',
	'Отправить email',
	'🚀 Launch',
	'___',
	'!!!',
	'x'.repeat(80),
	`${'ab '.repeat(30)}end`,
	'tool_2',
	'',
];

describe('nodeNameToN8nToolName equals n8n-workflow nodeNameToToolName', () => {
	test.each(NAMES)('%j', (name) => {
		expect(nodeNameToN8nToolName(name)).toBe(nodeNameToToolName(name));
	});

	test('on arbitrary strings', () => {
		fc.assert(
			fc.property(
				fc.string({ unit: 'grapheme', maxLength: 90 }),
				(name) => nodeNameToN8nToolName(name) === nodeNameToToolName(name),
			),
			{ numRuns: 1000 },
		);
	});
});

describe('toolNameFromNodeName', () => {
	test.each([
		['Date & Time', 'Date_Time'],
		['Café Ñandú', 'Cafe_Nandu'],
		['a _ b', 'a_b'],
		['HTTP Request', 'HTTP_Request'],
		['Send e-mail (v2)', 'Send_e-mail_v2'],
		['Größe', 'Grosse'],
		['Łódź Ærø', 'Lodz_AEro'],
		['node.with.dots', 'node_with_dots'],
		['  padded  ', 'padded'],
		['🚀 Launch', 'Launch'],
	])('%j → %j', (name, expected) => {
		expect(toolNameFromNodeName(name)).toBe(expected);
	});

	test.each(['日本語のノード', '日本語の別ノード', 'Отправить', '___', '!!!', ''])(
		'no Latin letters: %j gets a stable tool_<hash>',
		(name) => {
			const result = toolNameFromNodeName(name);
			expect(result).toMatch(/^tool_[0-9a-z]{7}$/);
			expect(toolNameFromNodeName(name)).toBe(result);
		},
	);

	test('distinct non-Latin names stay distinct, also when Latin letters remain', () => {
		expect(toolNameFromNodeName('日本語のノード')).not.toBe(
			toolNameFromNodeName('日本語の別ノード'),
		);
		expect(toolNameFromNodeName('Отправить email')).not.toBe(
			toolNameFromNodeName('Получить email'),
		);
		expect(toolNameFromNodeName('Отправить email')).toMatch(/^email_[0-9a-z]{7}$/);
	});

	test('long names are cut to 64 without a trailing separator', () => {
		const result = toolNameFromNodeName(`${'ab '.repeat(30)}end`);
		expect(result.length).toBeLessThanOrEqual(64);
		expect(result).toMatch(/^ab_ab_[a-z_]*[a-z]$/);
	});

	test.each([
		['Date & Time', ['Date_Time'], 'Date_Time_2'],
		['Date & Time', ['Date_Time', 'Date_Time_2'], 'Date_Time_3'],
		['x'.repeat(80), ['x'.repeat(64)], `${'x'.repeat(62)}_2`],
		['Slack', ['Other'], 'Slack'],
	])('never in taken: %j', (name, taken, expected) => {
		expect(toolNameFromNodeName(name, new Set(taken))).toBe(expected);
	});

	test('always valid, and never taken, for arbitrary names', () => {
		fc.assert(
			fc.property(
				fc.string({ unit: 'grapheme', maxLength: 90 }),
				fc.array(fc.string({ maxLength: 10 }), { maxLength: 5 }),
				(name, extra) => {
					const first = toolNameFromNodeName(name);
					expect(first).toMatch(VALID);
					const taken = new Set([first, `${first}_2`, ...extra]);
					const second = toolNameFromNodeName(name, taken);
					expect(second).toMatch(VALID);
					expect(taken.has(second)).toBe(false);
				},
			),
			{ numRuns: 1000 },
		);
	});
});
