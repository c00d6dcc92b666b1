/**
 * Connected tools tagged with the node they come from, as n8n-core does from 2.6.2 and
 * n8n's AI Agent does itself before that: the i-th `getInputConnectionData('ai_tool')` entry
 * belongs to the i-th node of n8n-core's `getConnectedNodes('ai_tool')`.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { loadConnectedTools } from '../../../../src/hosts/n8n/langchain/load-connected-tools';

type Metadata = Record<string, unknown>;
const tool = (name: string, metadata?: Metadata) => ({ name, metadata, invoke: async () => '' });

function context(
	supplied: unknown,
	nodes: string[] | undefined,
	parents?: Array<{ name: string; disabled?: boolean }>,
): IExecuteFunctions {
	return {
		getNode: () => ({ name: 'Agent' }),
		getInputConnectionData: async () => supplied,
		...(nodes ? { getConnectedNodes: () => nodes.map((name) => ({ name })) } : {}),
		...(parents ? { getParentNodes: () => parents } : {}),
	} as unknown as IExecuteFunctions;
}

const metadataOf = (tools: unknown[]) =>
	tools.map((entry) => (entry as { metadata?: Metadata }).metadata);

describe('loadConnectedTools', () => {
	it('tags each tool with its node, by position, and toolkit tools as from a toolkit', async () => {
		const tools = await loadConnectedTools(
			context([tool('Hash_Text'), { tools: [tool('a'), tool('b')] }], ['Hash Text', 'MCP Client']),
			0,
		);
		expect(metadataOf(tools)).toEqual([
			{ sourceNodeName: 'Hash Text' },
			{ sourceNodeName: 'MCP Client', isFromToolkit: true },
			{ sourceNodeName: 'MCP Client', isFromToolkit: true },
		]);
	});

	it('keeps the tag n8n set', async () => {
		const tools = await loadConnectedTools(
			context([tool('Hash_Text', { sourceNodeName: 'Review' })], ['Hash Text']),
			0,
		);
		expect(metadataOf(tools)).toEqual([{ sourceNodeName: 'Review' }]);
	});

	it('falls back to getParentNodes without the disabled nodes n8n leaves out', async () => {
		const tools = await loadConnectedTools(
			context([tool('b')], undefined, [{ name: 'A', disabled: true }, { name: 'B' }]),
			0,
		);
		expect(metadataOf(tools)).toEqual([{ sourceNodeName: 'B' }]);
	});

	it('guesses nothing when the lists do not line up', async () => {
		const tools = await loadConnectedTools(context([tool('a'), tool('b')], ['A']), 0);
		expect(metadataOf(tools)).toEqual([undefined, undefined]);
	});

	it('accepts a single tool and no tools', async () => {
		expect(metadataOf(await loadConnectedTools(context(tool('a'), ['A']), 0))).toEqual([
			{ sourceNodeName: 'A' },
		]);
		expect(await loadConnectedTools(context(undefined, []), 0)).toEqual([]);
	});
});
