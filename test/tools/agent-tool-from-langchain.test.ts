import { DynamicStructuredTool, DynamicTool } from '@langchain/core/tools';
import { ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
	agentToolFromLangChain,
	flattenConnectedTools,
} from '../../src/tools/agent-tool-from-langchain';

describe('agentToolFromLangChain', () => {
	it.each([
		['There was an error: "no task runner"', true],
		['HTTP 503 There was an error: "Request failed with status code 503"', true],
		['Error during node execution: Execution was cancelled', true],
		['There was an error here, says the text', false],
	])("n8n's failure texts are error observations: %s", async (answer, isError) => {
		const tool = agentToolFromLangChain(
			new DynamicTool({ name: 'n8n_tool', description: 'x', func: async () => answer }),
		);
		expect(await tool.invoke({ input: 'x' }, { toolCallId: 't' })).toMatchObject({
			content: answer,
			isError,
		});
	});

	it('text content blocks (what n8n vector stores answer) are read as their text', async () => {
		const blocks = [
			{ type: 'text', text: '{"pageContent":"Bananas are yellow."}' },
			{ type: 'text', text: '{"pageContent":"Lemons too."}' },
		];
		const tool = agentToolFromLangChain(
			new DynamicStructuredTool({
				name: 'store',
				description: 'x',
				schema: z.object({ input: z.string() }),
				func: async () => blocks as never,
			}),
		);
		expect(await tool.invoke({ input: 'yellow' }, { toolCallId: 't' })).toEqual({
			content: '{"pageContent":"Bananas are yellow."}\n{"pageContent":"Lemons too."}',
			isError: false,
		});
	});

	it('prefers the bridge JSON Schema in metadata and keeps the source node', async () => {
		const jsonSchema = {
			type: 'object',
			properties: { text: { type: 'string', description: 'exact' } },
			required: ['text'],
		};
		const tool = agentToolFromLangChain(
			new DynamicStructuredTool({
				name: 'hash',
				description: 'Hashes',
				schema: z.object({ text: z.string() }),
				func: async ({ text }) => `#${text}`,
				metadata: { sourceNodeName: 'Crypto', toolbridge: { jsonSchema } },
			}),
		);
		expect(tool).toMatchObject({
			name: 'hash',
			description: 'Hashes',
			parameters: jsonSchema,
			sourceNodeName: 'Crypto',
		});
		expect(await tool.invoke({ text: 'a' }, { toolCallId: 't' })).toEqual({
			content: '#a',
			isError: false,
		});
	});

	it('converts a zod schema and parses JSON results into data', async () => {
		const tool = agentToolFromLangChain(
			new DynamicStructuredTool({
				name: 'items',
				description: 'Lists',
				schema: z.object({
					count: z.number().int().describe('how many'),
					tag: z.string().optional(),
				}),
				func: async ({ count }) =>
					JSON.stringify(Array.from({ length: count }, (_, index) => ({ id: index }))),
			}),
		);
		expect(tool.parameters).toMatchObject({
			type: 'object',
			properties: { count: { type: 'integer', description: 'how many' } },
			required: ['count'],
		});
		expect(await tool.invoke({ count: 2 }, { toolCallId: 't' })).toEqual({
			content: '[{"id":0},{"id":1}]',
			isError: false,
			data: [{ id: 0 }, { id: 1 }],
			value: [{ id: 0 }, { id: 1 }],
		});
	});

	it('accepts a duck-typed tool from another LangChain copy with a plain JSON Schema', async () => {
		const foreign = {
			name: 'foreign',
			description: 'From another copy',
			schema: { type: 'object', properties: { q: { type: 'string' } } },
			invoke: async (input: { q: string }) =>
				new ToolMessage({ content: `got ${input.q}`, tool_call_id: 'x' }),
		};
		const tool = agentToolFromLangChain(foreign);
		expect(tool.parameters).toEqual(foreign.schema);
		expect(await tool.invoke({ q: 'z' }, { toolCallId: 't' })).toEqual({
			content: 'got z',
			isError: false,
		});
	});

	it('never throws: errors and n8n error strings become error observations', async () => {
		const throwing = agentToolFromLangChain({
			name: 't',
			invoke: async () =>
				Promise.reject(Object.assign(new Error('boom'), { description: 'check the key' })),
		});
		expect(await throwing.invoke({}, { toolCallId: 't' })).toEqual({
			content: 'Error: boom (check the key)',
			isError: true,
		});
		const cancelled = agentToolFromLangChain({
			name: 'c',
			invoke: async () => 'Error during node execution: Execution was cancelled',
		});
		expect((await cancelled.invoke({}, { toolCallId: 't' })).isError).toBe(true);
	});

	it('describes a plain string tool', async () => {
		const tool = agentToolFromLangChain(
			new DynamicTool({
				name: 'echo',
				description: 'Echoes',
				func: async (input) => `echo ${input}`,
			}),
		);
		expect(tool.parameters).toMatchObject({ type: 'object' });
		expect(await tool.invoke({ input: 'hi' }, { toolCallId: 't' })).toEqual({
			content: 'echo hi',
			isError: false,
		});
	});

	it('flattens arrays, single tools and toolkits', () => {
		const a = { name: 'a', invoke: async () => '' };
		const b = { name: 'b', invoke: async () => '' };
		const toolkit = { tools: [b], getTools: () => [b] };
		expect(
			flattenConnectedTools([a, toolkit]).map((tool) => (tool as { name: string }).name),
		).toEqual(['a', 'b']);
		expect(flattenConnectedTools(a)).toEqual([a]);
		expect(flattenConnectedTools(undefined)).toEqual([]);
	});
});
