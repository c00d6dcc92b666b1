import { describe, expect, it } from 'vitest';
import {
	ReasoningDetailsAccumulator,
	reasoningTextOf,
} from '../../src/chat/reasoning-details-accumulator';
import type { ReasoningDetail } from '../../src/chat/types';

function merge(...deltas: ReasoningDetail[][]): ReasoningDetail[] {
	const accumulator = new ReasoningDetailsAccumulator();
	for (const delta of deltas) accumulator.add(delta);
	return accumulator.finish();
}

describe('ReasoningDetailsAccumulator', () => {
	it('joins text deltas of the same index and type; the signature arrives last', () => {
		expect(
			merge(
				[{ type: 'reasoning.text', text: 'Think', format: 'anthropic-claude-v1', index: 0 }],
				[{ type: 'reasoning.text', text: 'ing.', format: 'anthropic-claude-v1', index: 0 }],
				[
					{
						type: 'reasoning.text',
						text: '',
						signature: 'sig',
						format: 'anthropic-claude-v1',
						index: 0,
					},
				],
			),
		).toEqual([
			{
				type: 'reasoning.text',
				text: 'Thinking.',
				signature: 'sig',
				format: 'anthropic-claude-v1',
				index: 0,
			},
		]);
	});

	it('keeps different indexes and types apart, in first-seen order, with encrypted data verbatim', () => {
		expect(
			merge(
				[{ type: 'reasoning.summary', summary: 'Plan: ', index: 0, format: 'openai-responses-v1' }],
				[
					{
						type: 'reasoning.encrypted',
						data: 'gAAAAB',
						index: 1,
						id: 'rs_1',
						format: 'openai-responses-v1',
					},
				],
				[{ type: 'reasoning.summary', summary: 'add.', index: 0 }],
			),
		).toEqual([
			{ type: 'reasoning.summary', summary: 'Plan: add.', index: 0, format: 'openai-responses-v1' },
			{
				type: 'reasoning.encrypted',
				data: 'gAAAAB',
				index: 1,
				id: 'rs_1',
				format: 'openai-responses-v1',
			},
		]);
	});

	it('keeps entries without an index as they came, and unknown fields', () => {
		expect(
			merge(
				[{ type: 'reasoning.text', text: 'a', extra: { x: 1 } }],
				[{ type: 'reasoning.text', text: 'b' }],
			),
		).toEqual([
			{ type: 'reasoning.text', text: 'a', extra: { x: 1 } },
			{ type: 'reasoning.text', text: 'b' },
		]);
	});

	it.each<[ReasoningDetail, string]>([
		[{ type: 'reasoning.text', text: 'x' }, 'x'],
		[{ type: 'reasoning.summary', summary: 'y' }, 'y'],
		[{ type: 'reasoning.encrypted', data: 'z' }, ''],
	])('reasoningTextOf(%j) = %j', (detail, text) => {
		expect(reasoningTextOf(detail)).toBe(text);
	});
});
