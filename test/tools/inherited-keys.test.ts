/**
 * `$fromAI` keys that are also members of Object.prototype (`toString`, `valueOf`,
 * `hasOwnProperty` …) are legal keys: an omitted one gets its default and a given one its
 * value, through real n8n-nodes-base nodes run by n8n-core — never the inherited function.
 * Reserved names (`constructor`, `__proto__`) are refused by the compiler, and a model that
 * sends `__proto__` pollutes nothing.
 */
import { createHash } from 'node:crypto';
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { INode } from 'n8n-workflow';
import { afterEach, describe, expect, it } from 'vitest';
import { agentToolFromLangChain } from '../../src/tools/agent-tool-from-langchain';
import type { AgentTool } from '../../src/tools/agent-tool';
import { createNestedAgentTool } from '../../src/tools/create-nested-agent-tool';
import { nestedAgentToolSpec } from '../../src/tools/nested-agent-tool-spec';
import { loadWorkflowTools } from '../../src/hosts/standalone/load-workflow-tools';
import { validateJsonSchema } from '../../src/schema/validate-json';
import { createChatModelCaller } from '../../src/agent/create-chat-model-caller';
import { textReply, toolCallReply } from '../support/fake-chat-server';
import { fakeChatServerForFile } from '../support/fake-chat-server-hooks';
import { agentWorkflow, formatDateToolNode, hashTextToolNode } from '../support/real-tool-nodes';
import { drivers } from '../agent/loop-drivers';
import { sharedHost } from './helpers';

/** Object.prototype members the key rules allow (`constructor` and the `__…__` ones are reserved: see below). */
const inheritedKeys = [
	'toString',
	'valueOf',
	'hasOwnProperty',
	'isPrototypeOf',
	'propertyIsEnumerable',
	'toLocaleString',
];

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function hashNode(key: string): INode {
	const node = hashTextToolNode();
	node.parameters.value = `={{ $fromAI('${key}', 'The text to hash', 'string', 'fallback text') }}`;
	return node;
}

function dateNode(key: string): INode {
	const node = formatDateToolNode();
	node.parameters.date = `={{ $fromAI('${key}', 'The date to format', 'string', '2024-02-29T10:00:00Z') }}`;
	return node;
}

/** Both views the loop may get of the same real nodes: the bridge's AgentTools and the LangChain tools adapted. */
async function toolsFor(nodes: INode[]): Promise<Array<[string, Record<string, AgentTool>]>> {
	const loaded = await loadWorkflowTools(
		agentWorkflow('Agent', { prompt: '=x', options: {} }, nodes),
		{ host: await sharedHost() },
	);
	const byName = (tools: AgentTool[]) => Object.fromEntries(tools.map((tool) => [tool.name, tool]));
	return [
		['bridge', byName(loaded.tools)],
		['LangChain', byName(loaded.langChainTools.map(agentToolFromLangChain))],
	];
}

afterEach(() => {
	expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe('$fromAI keys named like Object.prototype members, through real n8n-nodes-base nodes', () => {
	it.each(inheritedKeys)(
		'%s: omitted → the default, given → the value (Crypto and Date & Time)',
		async (key) => {
			for (const [view, tools] of await toolsFor([hashNode(key), dateNode(key)])) {
				expect(tools.Hash_text.parameters).toMatchObject({
					properties: { [key]: { type: 'string', default: 'fallback text' } },
				});

				const omitted = await tools.Hash_text.invoke({}, { toolCallId: 'omitted' });
				expect(omitted.isError, `${view}: ${omitted.content}`).toBe(false);
				expect(omitted.content).toContain(sha256('fallback text'));
				expect(omitted.content).not.toMatch(/native code|function/);

				const given = await tools.Hash_text.invoke(
					{ [key]: 'given text' },
					{ toolCallId: 'given' },
				);
				expect(given.content, view).toContain(sha256('given text'));

				const dateOmitted = await tools.Format_date.invoke({}, { toolCallId: 'date-omitted' });
				expect(dateOmitted.isError, `${view}: ${dateOmitted.content}`).toBe(false);
				expect(dateOmitted.content).toContain('2024');
				expect(
					(
						await tools.Format_date.invoke(
							{ [key]: '2031-05-01T00:00:00Z' },
							{ toolCallId: 'date-given' },
						)
					).content,
				).toContain('2031');
			}
		},
	);

	it('a wrong type for such a key names the value the model sent, not an inherited function', async () => {
		const [[, tools]] = await toolsFor([hashNode('valueOf')]);
		const observation = await tools.Hash_text.invoke({ valueOf: 42 }, { toolCallId: 'n' });
		// 42 is coerced to "42" for a string: the intent is clear.
		expect(observation.content).toContain(sha256('42'));
		const wrong = await tools.Hash_text.invoke({ valueOf: { a: 1 } }, { toolCallId: 'o' });
		expect(wrong).toMatchObject({ isError: true });
		expect(wrong.content).toContain('valueOf');
		expect(wrong.content).toContain('an object');
		expect(wrong.content).not.toMatch(/native code/);
	});

	it('a required key named toString that the model left out is reported missing', async () => {
		const node = hashTextToolNode();
		node.parameters.value = "={{ $fromAI('toString', 'The text to hash') }}";
		for (const [view, tools] of await toolsFor([node])) {
			const observation = await tools.Hash_text.invoke({}, { toolCallId: 'missing' });
			expect(observation.isError, view).toBe(true);
			expect(observation.content).toContain('toString');
			expect(observation.content).toMatch(/required/i);
			expect(observation.content).not.toMatch(/native code/);
		}
	});

	it.each(['constructor', '__proto__', 'prototype'])(
		'the reserved key %s is refused by the compiler with a clear error',
		async (key) => {
			const loaded = await loadWorkflowTools(
				agentWorkflow('Agent', { prompt: '=x', options: {} }, [hashNode(key)]),
				{ host: await sharedHost(), onBuildError: 'collect' },
			);
			expect(loaded.tools).toEqual([]);
			expect(loaded.problems).toHaveLength(1);
			expect(loaded.problems[0]).toMatchObject({
				code: 'FROM_AI_RESERVED_KEY',
				nodeName: 'Hash text',
				path: 'value',
			});
			expect(loaded.problems[0].message).toContain(`Found key '${key}', a reserved name`);
		},
	);

	it('arguments carrying __proto__ (as JSON.parse gives them) pollute nothing, and the defaults still apply', async () => {
		for (const [view, tools] of await toolsFor([hashNode('toString')])) {
			const args = JSON.parse(
				'{"__proto__": {"polluted": true, "toString": "from the prototype"}}',
			) as Record<string, unknown>;
			const observation = await tools.Hash_text.invoke(args, { toolCallId: 'proto' });
			expect(observation.isError, `${view}: ${observation.content}`).toBe(false);
			expect(observation.content).toContain(sha256('fallback text'));
			expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		}
	});
});

/** A model whose tool call ids and argument keys are Object.prototype member names. */
const server = fakeChatServerForFile({
	respond: ({ body }) => {
		const results = (body.messages as Array<{ role: string; content: string }>).filter(
			(message) => message.role === 'tool',
		);
		if (results.length > 0) return textReply(results.map((result) => result.content).join(' | '));
		return toolCallReply([
			{ id: 'toString', name: 'Hash_text', arguments: {} },
			{ id: 'hasOwnProperty', name: 'Hash_text', arguments: { toString: 'given text' } },
		]);
	},
});

describe.each(drivers)('the loop with such keys and call ids (%s driver)', (_name, drive) => {
	it('runs both calls with the right arguments', async () => {
		const [[, tools]] = await toolsFor([hashNode('toString')]);
		const { result } = await drive({
			input: { config: { model: 'm' }, prompt: 'hash' },
			tools: [tools.Hash_text],
			callModel: createChatModelCaller({ baseUrl: server.baseUrl, retry: { maxRetries: 0 } }),
		});
		expect(result.steps.map((step) => [step.toolCallId, step.isError])).toEqual([
			['toString', false],
			['hasOwnProperty', false],
		]);
		expect(result.steps[0].result).toContain(sha256('fallback text'));
		expect(result.steps[1].result).toContain(sha256('given text'));
	});
});

describe('inherited member names elsewhere arguments meet objects', () => {
	it('a nested agent tool fills its prompt from a toString key: omitted → the default', async () => {
		const prompts: string[] = [];
		const spec = nestedAgentToolSpec({
			name: 'Helper',
			parameters: { prompt: "={{ $fromAI('toString', 'The task', 'string', 'default task') }}" },
		});
		const tool = createNestedAgentTool({
			spec,
			run: async (prompt) => {
				prompts.push(prompt);
				return 'done';
			},
		});
		expect(await tool.invoke({}, { toolCallId: 'a' })).toMatchObject({
			content: 'done',
			isError: false,
		});
		expect(await tool.invoke({ toString: 'given task' }, { toolCallId: 'b' })).toMatchObject({
			content: 'done',
			isError: false,
		});
		expect(prompts).toEqual(['default task', 'given task']);
	});

	it('the JSON Schema validator (validator mode) reports a missing toString as missing, not as a function', () => {
		const schema = {
			type: 'object',
			properties: { toString: { type: 'string' }, valueOf: { type: 'number', default: 1 } },
			required: ['toString'],
			additionalProperties: false,
		};
		const problems = validateJsonSchema({}, schema as never);
		expect(problems).toEqual([
			{ field: 'toString', expected: 'a string (required)', received: 'nothing' },
		]);
		expect(validateJsonSchema({ toString: 'x' }, schema as never)).toEqual([]);
	});

	it('a LangChain tool with such keys gets exactly the arguments the model sent', async () => {
		const seen: unknown[] = [];
		const tool = agentToolFromLangChain(
			new DynamicStructuredTool({
				name: 'echo',
				description: 'Echoes',
				schema: {
					type: 'object',
					properties: { toString: { type: 'string' } },
					additionalProperties: false,
				},
				func: async (input: unknown) => {
					seen.push(input);
					return 'ok';
				},
			}),
		);
		expect(await tool.invoke({ toString: 'x' }, { toolCallId: 'c' })).toMatchObject({
			isError: false,
		});
		expect(seen).toEqual([{ toString: 'x' }]);
	});
});
