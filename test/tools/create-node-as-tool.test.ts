import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentTool } from '../../src/tools/agent-tool';
import { ToolBuildError } from '../../src/errors/tool-build-error';
import {
	loadWorkflowTools,
	type WorkflowTools,
} from '../../src/hosts/standalone/load-workflow-tools';
import { sharedHost, workflowFixture } from './helpers';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const call = { toolCallId: 'call_1' };

let loaded: WorkflowTools;
let tools: Record<string, AgentTool>;

beforeAll(async () => {
	loaded = await loadWorkflowTools(workflowFixture('text-tools.json'), {
		host: await sharedHost(),
	});
	tools = Object.fromEntries(loaded.tools.map((tool) => [tool.name, tool]));
});

describe('tools of a workflow (real n8n nodes through n8n-core)', () => {
	it('finds the agent and its five tools with typed JSON Schemas', () => {
		expect(loaded.agentNode.name).toBe('Agent');
		expect(loaded.tools.map((tool) => tool.name)).toEqual([
			'Hash_text',
			'Format_date',
			'Make_record',
			'Text_stats',
			'Calendar_file',
		]);
		expect(tools.Make_record.parameters.properties).toMatchObject({
			name: { type: 'string' },
			age: { type: 'number' },
			vip: { type: 'boolean', default: false },
			profile: { default: { source: 'agent' } },
		});
		expect(tools.Make_record.parameters.required).toEqual(['name', 'age']);
		expect(tools.Hash_text.description).toBe('Computes the SHA-256 hash (hex) of a text');
		expect(tools.Hash_text.sourceNodeName).toBe('Hash text');
	});

	it.each(['hello', 'Grüße, 世界 🌍', '={{ $env.HOME }}', "it's {{ 1 + 1 }} }}"])(
		'Crypto (cryptoTool) hashes %j exactly as sent',
		async (text) => {
			const observation = await tools.Hash_text.invoke({ text }, call);
			expect(observation.isError).toBe(false);
			expect(JSON.parse(observation.content)).toEqual([{ sha256: sha256(text) }]);
		},
	);

	it('the LangChain tool returns the same text, not double-encoded', async () => {
		const tool = loaded.langChainTools[0];
		expect(tool.metadata).toMatchObject({
			sourceNodeName: 'Hash text',
			toolbridge: { jsonSchema: { required: ['text'] } },
		});
		const content = await tool.invoke({ text: 'abc' });
		expect(typeof content).toBe('string');
		expect(JSON.parse(content)).toEqual([{ sha256: sha256('abc') }]);
	});

	it('applies defaults and the workflow timezone (Date & Time)', async () => {
		const observation = await tools.Format_date.invoke({ date: '2024-03-05T10:00:00Z' }, call);
		// Europe/Berlin is UTC+1 in March; the default format comes from $fromAI's 4th argument.
		expect(JSON.parse(observation.content)).toEqual([{ formattedDate: '2024-03-05 11:00 GMT+1' }]);
		const custom = await tools.Format_date.invoke(
			{ date: '2024-07-01T22:30:00Z', format: 'dd.MM.yyyy' },
			call,
		);
		expect(JSON.parse(custom.content)).toEqual([{ formattedDate: '02.07.2024' }]);
	});

	it('Edit Fields: typed values, coercion, defaults, mixed templates, other expressions', async () => {
		const observation = await tools.Make_record.invoke(
			{ name: 'Ada', age: '36', vip: 'TRUE', profile: '{"city":"London","tags":["math"]}' },
			call,
		);
		expect(observation.isError).toBe(false);
		expect(JSON.parse(observation.content)).toEqual([
			{
				name: 'Ada',
				age: 36,
				vip: true,
				profile: { city: 'London', tags: ['math'] },
				summary: 'Name: Ada, next year 37, profile {"city":"London","tags":["math"]}',
				source: 'N8N-42',
			},
		]);
		const defaults = await tools.Make_record.invoke({ name: 'Bo', age: 5, vip: null }, call);
		expect(JSON.parse(defaults.content)[0]).toMatchObject({
			vip: false,
			profile: { source: 'agent' },
			summary: 'Name: Bo, next year 6, profile {"source":"agent"}',
		});
	});

	it('model text that looks like an expression stays literal text', async () => {
		const name = '={{ $env.PATH }}';
		const observation = await tools.Make_record.invoke(
			{ name, age: 1, profile: { note: '={{ 6 * 7 }}', brace: '{{ 6 * 7 }}' } },
			call,
		);
		const [item] = JSON.parse(observation.content);
		expect(item.name).toBe(name);
		expect(item.profile).toEqual({ note: '={{ 6 * 7 }}', brace: '{{ 6 * 7 }}' });
		expect(item.summary).toBe(
			`Name: ${name}, next year 2, profile {"note":"={{ 6 * 7 }}","brace":"{{ 6 * 7 }}"}`,
		);
	});

	it('bad arguments become an observation naming field and expected type (through LangChain invoke)', async () => {
		const tool = loaded.langChainTools[2];
		const content = await tool.invoke({ name: 'Ada', age: 'thirty' });
		expect(content).toMatch(/^Error: invalid arguments for tool "Make_record"/);
		expect(content).toContain('"age": expected a number, received the string "thirty"');
		const viaToolCall = await tool.invoke({
			id: 'c1',
			name: tool.name,
			type: 'tool_call',
			args: { age: 3 },
		});
		expect(String(viaToolCall.content)).toContain(
			'"name": expected a string, received nothing. This argument is required.',
		);
		const observation = await tools.Make_record.invoke({ name: 'Ada', age: 3, profile: {} }, call);
		expect(observation).toMatchObject({ isError: true });
		expect(observation.content).toContain('"profile": expected a non-empty JSON object or array');
	});

	it('a node error becomes an observation with the node message (fixture package node)', async () => {
		const ok = await tools.Text_stats.invoke({ text: 'the cat and the hat', word: 'THE' }, call);
		expect(JSON.parse(ok.content)).toEqual([
			{ characters: 19, words: 5, lines: 1, occurrences: 2 },
		]);
		const failed = await tools.Text_stats.invoke({ text: '   ' }, call);
		expect(failed.isError).toBe(true);
		expect(failed.content).toBe(
			'Error: node "Text stats" failed: Text Stats needs a text with at least one non-space character',
		);
	});

	it('binary-only output is described, not dumped (Convert to File → iCal)', async () => {
		const observation = await tools.Calendar_file.invoke(
			{ title: 'Review', start: '2024-03-05T10:00:00Z', end: '2024-03-05T11:00:00Z' },
			call,
		);
		expect(observation.isError).toBe(false);
		expect(observation.content).toMatch(
			/^The tool produced binary data only, which is not shown here: item 0: "data" \(event\.ics, text\/calendar, \d+ B\)\.$/,
		);
	});

	it('an observation carries the JSON value its text was made from, once; text with a binary note has none', async () => {
		const observation = await tools.Hash_text.invoke({ text: 'abc' }, call);
		expect(observation.value).toEqual([{ sha256: sha256('abc') }]);
		expect(observation.content).toBe(JSON.stringify(observation.value));
		expect(tools.Hash_text.nodeType).toBe(
			loaded.workflow.nodes.find((node) => node.name === 'Hash text')!.type,
		);
		const binary = await tools.Calendar_file.invoke(
			{ title: 'Standup', start: '2024-03-05T09:00:00Z', end: '2024-03-05T09:15:00Z' },
			call,
		);
		expect(binary.isError).toBe(false);
		expect(binary.value).toBeUndefined();
	});
});

describe('tool build problems', () => {
	it('a bad $fromAI fails at build time with node, path and position', async () => {
		const error = await loadWorkflowTools(workflowFixture('bad-from-ai.json'), {
			host: await sharedHost(),
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(ToolBuildError);
		const problems = (error as ToolBuildError).problems;
		expect(
			problems.map(({ nodeName, path, index, code }) => ({ nodeName, path, index, code })),
		).toEqual([
			{
				nodeName: 'Broken record',
				path: 'assignments.assignments[0].value',
				index: 33,
				code: 'FROM_AI_INVALID_TYPE',
			},
			{
				nodeName: 'Broken record',
				path: 'assignments.assignments[1].value',
				index: 12,
				code: 'FROM_AI_INVALID_KEY',
			},
		]);
		expect((error as Error).message).toContain(
			'Node "Broken record", assignments.assignments[0].value at position 33',
		);
	});

	it('collect mode keeps the good tools', async () => {
		const { tools: good, problems } = await loadWorkflowTools(workflowFixture('bad-from-ai.json'), {
			host: await sharedHost(),
			onBuildError: 'collect',
		});
		expect(good.map((tool) => tool.name)).toEqual(['Hash_text']);
		expect(problems).toHaveLength(2);
	});
});
