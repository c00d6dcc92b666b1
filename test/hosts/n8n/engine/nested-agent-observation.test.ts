/**
 * The parent's reading of a nested Agent Orchestrator that n8n's engine ran as a tool node:
 * the answer from its one output item, the usage from its task metadata only.
 */
import type { IDataObject, ITaskData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import {
	nestedAgentObservation,
	nestedAgentUsageKey,
} from '../../../../src/hosts/n8n/engine/nested-agent-observation';

const usage = { promptTokens: 30, completionTokens: 4, totalTokens: 34, cost: 0.0001 };

function taskData(items: IDataObject[], metadata?: object, error?: Error): ITaskData {
	return {
		startTime: 0,
		executionIndex: 0,
		executionTime: 1,
		source: [],
		data: { ai_tool: [items.map((json) => ({ json }))] },
		...(metadata ? { metadata } : {}),
		...(error ? { error } : {}),
	} as ITaskData;
}

describe('nestedAgentObservation', () => {
	it.each([
		[
			'text answer, usage in the task metadata',
			taskData([{ output: 'The answer.' }], { [nestedAgentUsageKey]: usage }),
			{ observation: { content: 'The answer.', isError: false }, usage },
		],
		[
			'text answer with details, no metadata: no usage',
			taskData([{ output: 'The answer.', usage }]),
			{ observation: { content: 'The answer.', isError: false } },
		],
		[
			'object answer (output format json) as JSON text',
			taskData([{ output: { sha256: 'ab' } }], { [nestedAgentUsageKey]: usage, subRun: [] }),
			{ observation: { content: '{"sha256":"ab"}', isError: false }, usage },
		],
		[
			'metadata value that is not a usage',
			taskData([{ output: 'x' }], { [nestedAgentUsageKey]: { totalTokens: 'many' } }),
			{ observation: { content: 'x', isError: false } },
		],
	])('%s', (_label, data, expected) => {
		expect(nestedAgentObservation(data)).toEqual(expected);
	});

	it.each([
		['no task data', undefined],
		['a node error', taskData([], { [nestedAgentUsageKey]: usage }, new Error('boom'))],
		['several items', taskData([{ output: 'a' }, { output: 'b' }])],
		[
			'an item without output (continue on fail)',
			taskData([{ error: 'failed', code: 'AGENT_ABORTED' }]),
		],
	])('leaves %s to the generic observation', (_label, data) => {
		expect(nestedAgentObservation(data)).toBeUndefined();
	});
});
