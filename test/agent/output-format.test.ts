/**
 * Issue 9, output format `json` with real n8n-nodes-base tools (Crypto through the bridge):
 * tools first, then a validated object; an invalid answer repaired once; an unrepairable
 * one failing with both attempts' errors. Every driver (in-process, serialized state, and the
 * node's engine path in WorkflowExecute, whose result is read from its output item); and the
 * node's json / full output items identical whichever driver ran the loop.
 */
import { createHash } from 'node:crypto';
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { AgentOrchestrator } from '../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import type { AgentTool } from '../../src/tools/agent-tool';
import { createChatModelCaller } from '../../src/agent/create-chat-model-caller';
import { agentOutputItem } from '../../src/agent/output-format/agent-output-item';
import { loadWorkflowTools } from '../../src/hosts/standalone/load-workflow-tools';
import {
	textReply,
	toolCallReply,
	type FakeReply,
	type FakeRequest,
} from '../support/fake-chat-server';
import { fakeChatServerForFile } from '../support/fake-chat-server-hooks';
import { agentWorkflow, hashTextToolNode } from '../support/real-tool-nodes';
import {
	fakeModelCredentials,
	orchestratorNode,
	runEngineWorkflow,
} from '../hosts/n8n/engine-workflow';
import { drivers } from './loop-drivers';

const hashNode = hashTextToolNode();
const workflow = agentWorkflow('Agent', { prompt: '=x', options: {} }, [hashNode]);

const schema = {
	type: 'object',
	properties: { text: { type: 'string' }, sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
	required: ['text', 'sha256'],
	additionalProperties: false,
};
const expectedHash = createHash('sha256').update('toolbridge').digest('hex');

type Behaviour = 'prose-then-valid' | 'invalid-then-repaired' | 'never-valid';
let tools: AgentTool[];

/** The hash the real Crypto node returned, read from the tool message the model got. */
function hashFromToolResult(request: FakeRequest): string {
	const tool = (request.body.messages as Array<{ role: string; content: string }>).find(
		(message) => message.role === 'tool',
	);
	return (JSON.parse(tool?.content ?? '[]') as Array<{ sha256: string }>)[0]?.sha256 ?? 'missing';
}

function respond(request: FakeRequest): FakeReply {
	const { body } = request;
	const messages = body.messages as Array<{ role: string; content: string | null }>;
	const behaviour = String(
		messages.find((message) => message.role === 'user')?.content,
	) as Behaviour;
	if (!messages.some((message) => message.role === 'tool'))
		return toolCallReply([{ id: 'h1', name: 'Hash_text', arguments: { text: 'toolbridge' } }], {
			model: body.model,
		});
	const hash = hashFromToolResult(request);
	const constrained =
		body.response_format !== undefined || body.tool_choice?.function?.name === 'final_answer';
	const answer = (value: object): FakeReply =>
		body.tool_choice?.function?.name === 'final_answer'
			? toolCallReply([{ id: `fa${request.index}`, name: 'final_answer', arguments: value }], {
					model: body.model,
				})
			: textReply(JSON.stringify(value), { model: body.model });
	switch (behaviour) {
		case 'prose-then-valid':
			return constrained
				? answer({ text: 'toolbridge', sha256: hash })
				: textReply(`The SHA-256 of toolbridge is ${hash}.`, { model: body.model });
		case 'invalid-then-repaired': {
			const repairing = messages.some((message) =>
				String(message.content).startsWith('Your answer does not match'),
			);
			return repairing
				? answer({ text: 'toolbridge', sha256: hash })
				: textReply(JSON.stringify({ text: 'toolbridge', sha256: 42 }), { model: body.model });
		}
		case 'never-valid':
			return constrained
				? answer({ text: 'toolbridge' })
				: textReply('I hashed it.', { model: body.model });
	}
}

beforeAll(async () => {
	tools = (await loadWorkflowTools(workflow)).tools;
});
const server = fakeChatServerForFile({ respond });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary request fields
function bodiesSince(start: number): Array<Record<string, any>> {
	return server.requests.slice(start).map((request) => request.body);
}

describe.each(drivers)('output format json with real n8n tools (%s driver)', (_name, drive) => {
	it('uses the tools, then answers with a valid object (response_format for an OpenAI model)', async () => {
		const start = server.requests.length;
		const { result, state } = await drive({
			input: {
				config: { model: 'openai/gpt-4o', structuredOutput: { schema } },
				prompt: 'prose-then-valid',
			},
			tools,
			callModel: createChatModelCaller({ baseUrl: server.baseUrl, retry: { maxRetries: 0 } }),
		});
		expect(result.object).toEqual({ text: 'toolbridge', sha256: expectedHash });
		expect(result.steps.map((step) => step.tool)).toEqual(['Hash_text']);
		const bodies = bodiesSince(start);
		expect(bodies).toHaveLength(3);
		expect(bodies[0].messages[0].content).toContain('reply with only a JSON value');
		expect(bodies[2].response_format).toEqual({
			type: 'json_schema',
			json_schema: { name: 'answer', strict: true, schema },
		});
		expect(bodies[2].tool_choice).toBe('none');
		// Memory gets the conversation and the JSON answer, not the scaffolding.
		expect(state.messages.at(-1)).toEqual({
			role: 'assistant',
			content: JSON.stringify({ text: 'toolbridge', sha256: expectedHash }),
		});
		expect(agentOutputItem(result, { format: 'json' })).toEqual({
			output: { text: 'toolbridge', sha256: expectedHash },
		});
	});

	it('repairs an invalid first answer once (forced final_answer tool for an Anthropic model)', async () => {
		const start = server.requests.length;
		const { result } = await drive({
			input: {
				config: { model: 'anthropic/claude-sonnet-4', structuredOutput: { schema } },
				prompt: 'invalid-then-repaired',
			},
			tools,
			callModel: createChatModelCaller({ baseUrl: server.baseUrl, retry: { maxRetries: 0 } }),
		});
		expect(result.object).toEqual({ text: 'toolbridge', sha256: expectedHash });
		expect(result.outputAttempts).toEqual([
			{
				answer: '{"text":"toolbridge","sha256":42}',
				errors: ['/sha256: must be string (found 42)'],
			},
		]);
		const repair = bodiesSince(start)[2];
		expect(repair.tool_choice).toEqual({ type: 'function', function: { name: 'final_answer' } });
		expect(repair.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
			'Hash_text',
			'final_answer',
		]);
		expect(repair.messages.at(-1).content).toContain('/sha256: must be string (found 42)');
	});

	it("fails with both attempts' errors when the answer cannot be repaired", async () => {
		const run = drive({
			input: {
				config: { model: 'anthropic/claude-sonnet-4', structuredOutput: { schema } },
				prompt: 'never-valid',
			},
			tools,
			callModel: createChatModelCaller({ baseUrl: server.baseUrl, retry: { maxRetries: 0 } }),
		});
		await expect(run).rejects.toMatchObject({ code: 'AGENT_INVALID_OUTPUT' });
		const error = (await run.catch((caught: Error) => caught)) as Error;
		expect(error.message).toContain("attempt 1: /: required property 'sha256' is missing");
		expect(error.message).toContain("attempt 2: /: required property 'sha256' is missing");
	});
});

describe('output item', () => {
	it('full adds usage, cost, iterations, finish reason and the model that answered', async () => {
		const { result } = await drivers[0][1]({
			input: {
				config: { model: 'openai/gpt-4o', structuredOutput: { schema } },
				prompt: 'prose-then-valid',
			},
			tools,
			callModel: createChatModelCaller({ baseUrl: server.baseUrl, retry: { maxRetries: 0 } }),
		});
		const item = agentOutputItem(result, { format: 'full' });
		expect(item).toMatchObject({
			output: { text: 'toolbridge', sha256: expectedHash },
			iterations: 3,
			finishReason: 'stop',
			model: 'openai/gpt-4o',
			stopReason: 'answer',
			cost: expect.any(Number),
			usage: expect.objectContaining({ promptTokens: 36, cost: expect.any(Number) }),
		});
		expect(agentOutputItem({ ...result, object: undefined }, { format: 'text' })).toEqual({
			output: result.output,
		});
	});
});

describe('output items of the node, in-process vs engine (WorkflowExecute, real Crypto node)', () => {
	const agent = (options: INodeParameters, prompt: Behaviour, model: string): INode =>
		orchestratorNode('Agent', { model, prompt, options });
	/** The item with step durations (wall-clock) left out. */
	const comparable = (json: IDataObject) => ({
		...json,
		...(Array.isArray(json.steps)
			? { steps: (json.steps as IDataObject[]).map(({ durationMs: _durationMs, ...step }) => step) }
			: {}),
	});

	it.each([
		['json', 'openai/gpt-4o', 'prose-then-valid'],
		['full', 'anthropic/claude-sonnet-4', 'invalid-then-repaired'],
		['full', 'openai/gpt-4o', 'prose-then-valid'],
	] as const)(
		'output format %s (%s, %s): the same item from both drivers',
		async (format, model, prompt) => {
			const options = { outputFormat: format, outputSchema: JSON.stringify(schema) };
			const items: IDataObject[] = [];
			for (const toolExecution of ['inProcess', 'engine']) {
				const { output, run } = await runEngineWorkflow({
					agent: agent({ ...options, toolExecution }, prompt, model),
					tools: [hashNode],
					nodeTypes: { 'n8n-nodes-toolbridge.agentOrchestrator': new AgentOrchestrator() },
					credentials: fakeModelCredentials('sk-output-format-test', server.baseUrl),
				});
				// The engine ran the tool as its own node run; in-process, n8n logged the tool call on the node too.
				expect(run.data.resultData.runData['Hash text']).toHaveLength(1);
				items.push(output[0].json);
			}
			const [inProcess, engine] = items;
			expect(inProcess.output).toEqual({ text: 'toolbridge', sha256: expectedHash });
			if (format === 'json')
				expect(inProcess).toEqual({ output: { text: 'toolbridge', sha256: expectedHash } });
			else
				expect(inProcess).toMatchObject({
					model,
					finishReason: expect.any(String),
					usage: expect.objectContaining({ totalTokens: expect.any(Number) }),
					steps: [expect.objectContaining({ tool: 'Hash_text' })],
				});
			expect(comparable(engine)).toEqual(comparable(inProcess));
		},
	);
});
