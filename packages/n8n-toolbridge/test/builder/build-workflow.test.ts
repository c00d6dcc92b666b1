/**
 * The builder's loop against a loopback fake of the Chat Completions API: discovery tool calls,
 * a wrong answer corrected on the next turn, warnings sent back once, the stop after three
 * unreadable answers and at the budget, and editing an existing workflow.
 */
import { AgentConfigurationError, type StandaloneHost } from 'n8n-nodes-toolbridge';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeReply,
} from '../../../../test/support/fake-chat-server';
import { buildWorkflow, type BuildEvent } from '../../src/builder/agent/build-workflow';
import type { NodeCatalog } from '../../src/builder/catalog/node-catalog';
import { answer, builderContext } from '../support/builder-context';

let context: { host: StandaloneHost; catalog: NodeCatalog };
let server: FakeChatServer | undefined;

beforeAll(async () => {
	context = await builderContext();
}, 120_000);

afterEach(async () => {
	await server?.close();
	server = undefined;
});

const hashAgent = (type: string) => `
const chat = trigger({ type: '@n8n/n8n-nodes-langchain.chatTrigger', version: 1.1, config: { name: 'Chat' } });
const model = languageModel({ type: '@n8n/n8n-nodes-langchain.lmChatOpenRouter', version: 1, config: { name: 'Model', parameters: { model: 'openai/gpt-4o-mini' }, credentials: { openRouterApi: newCredential('OpenRouter') } } });
const hash = tool({ type: 'n8n-nodes-base.cryptoTool', version: 2, config: { name: 'Hash text', parameters: { action: 'hash', type: '${type}', value: fromAi('text', 'The text to hash'), dataPropertyName: 'hash', toolDescription: 'Hashes a text' } } });
const agent = node({ type: '@n8n/n8n-nodes-langchain.agent', version: 3.1, config: { name: 'Agent', parameters: { promptType: 'auto', options: { systemMessage: 'Hash texts with the Hash text tool.' } }, subnodes: { model, tools: [hash] } } });
export default workflow('hasher', 'Hasher').add(chat).to(agent);`;

const discovery: FakeReply[] = [
	toolCallReply([
		{
			name: 'search_nodes',
			arguments: { queries: ['chat trigger', 'ai agent', 'openrouter chat model', 'hash'] },
		},
	]),
	toolCallReply([
		{
			name: 'get_nodes',
			arguments: {
				nodeIds: [
					'@n8n/n8n-nodes-langchain.chatTrigger',
					'@n8n/n8n-nodes-langchain.agent',
					'@n8n/n8n-nodes-langchain.lmChatOpenRouter',
					'n8n-nodes-base.cryptoTool',
				],
			},
		},
	]),
];

async function build(
	replies: FakeReply[],
	options: Partial<Parameters<typeof buildWorkflow>[0]> = {},
) {
	server = await startFakeChatServer({
		respond: ({ index }) => replies[Math.min(index, replies.length - 1)],
	});
	const events: BuildEvent[] = [];
	const result = await buildWorkflow({
		request: 'A chat agent that hashes the text it is given with SHA-256',
		baseUrl: server.baseUrl,
		model: 'fake/model',
		env: {},
		...context,
		onEvent: (event) => events.push(event),
		...options,
	});
	return { result, events, requests: server.requests };
}

describe('buildWorkflow against a fake model', () => {
	it('searches, looks nodes up, and fixes a wrong first answer on the next turn', async () => {
		const { result, events, requests } = await build([
			...discovery,
			textReply(answer(hashAgent('SHA999'))),
			textReply(answer(hashAgent('SHA256'))),
		]);
		expect(result).toMatchObject({
			valid: true,
			stopReason: 'valid',
			rounds: 2,
			modelCalls: 4,
			toolCalls: 2,
		});
		expect(result.agents).toEqual([{ agent: 'Agent', tools: ['Hash_text'], notLoaded: [] }]);
		expect(result.workflow?.nodes.find((node) => node.name === 'Hash text')?.parameters.type).toBe(
			'SHA256',
		);
		expect(result.usage).toMatchObject({ promptTokens: 48, cost: expect.closeTo(0.000168, 6) });

		// The request: our system message with the SDK's reference, the two discovery tools.
		const first = requests[0].body;
		expect(first.model).toBe('fake/model');
		expect(first.messages[0].content).toMatch(/You build n8n workflows/);
		expect(first.messages[0].content).toMatch(/# Workflow SDK language reference/);
		expect(first.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
			'search_nodes',
			'get_nodes',
		]);
		expect(requests[1].body.messages.at(-1)).toMatchObject({
			role: 'tool',
			content: expect.stringMatching(/@n8n\/n8n-nodes-langchain\.agent v3\.1 "AI Agent"/),
		});
		// The correction turn: a user message, no tool call, the error with its line and code.
		const correction = requests[3].body.messages.at(-1);
		expect(correction.role).toBe('user');
		expect(correction.content).toMatch(/^Your workflow code was checked\. Fix every error/);
		expect(correction.content).toMatch(
			/- \[OPTION_NOT_ALLOWED\] node "Hash text" type \(line 3\): "type" is "SHA999"/,
		);
		expect(correction.content).toMatch(/> 3: const hash = tool/);
		expect(requests[3].body.messages.at(-2).role).toBe('assistant');

		expect(events.map((event) => event.type)).toEqual(
			expect.arrayContaining(['catalog', 'search', 'lookup', 'model-call', 'check']),
		);
		const checks = events.filter(
			(event): event is Extract<BuildEvent, { type: 'check' }> => event.type === 'check',
		);
		expect(checks.map((event) => [event.round, event.check.valid, event.sentBack])).toEqual([
			[1, false, true],
			[2, true, false],
		]);
	});

	it('stops after three answers in a row that cannot be read', async () => {
		const unreadable = textReply(
			answer(
				"let start = trigger({ type: 'n8n-nodes-base.manualTrigger', version: 1, config: { name: 'Start' } });\nexport default workflow('w', 'W').add(start);",
			),
		);
		const { result, requests } = await build([unreadable]);
		expect(result).toMatchObject({
			valid: false,
			stopReason: 'parse-failures',
			rounds: 3,
			modelCalls: 3,
		});
		expect(result.workflow).toBeUndefined();
		expect(result.issues[0]).toMatchObject({ source: 'parse', code: 'SDK_REJECTED', line: 1 });
		expect(requests[1].body.messages.at(-1).content).toMatch(
			/^Your code could not be read \(nothing of it ran\): 'let' declarations are not allowed/,
		);
	});

	it('sends a warning back once; an answer that keeps it is accepted', async () => {
		const orphan = `${hashAgent('SHA256').replace("export default workflow('hasher', 'Hasher').add(chat).to(agent);", '')}
const note = node({ type: 'n8n-nodes-base.noOp', version: 1, config: { name: 'Unused' } });
export default workflow('hasher', 'Hasher').add(chat).to(agent).add(note);`;
		const { result, requests } = await build([textReply(answer(orphan))]);
		expect(result).toMatchObject({ valid: true, stopReason: 'valid', rounds: 2 });
		expect(requests[1].body.messages.at(-1).content).toMatch(
			/Fix these warnings where they apply[\s\S]*\[DISCONNECTED_NODE\] node "Unused"/,
		);
		expect(result.issues).toEqual([
			expect.objectContaining({ code: 'DISCONNECTED_NODE', severity: 'warning' }),
		]);
	});

	it('stops at the budget of model calls, with the last code that could be read', async () => {
		const { result, requests } = await build(
			[discovery[0], discovery[1], textReply(answer(hashAgent('SHA999')))],
			{ maxIterations: 3 },
		);
		expect(result).toMatchObject({ valid: false, stopReason: 'budget', modelCalls: 3, rounds: 1 });
		expect(requests).toHaveLength(3);
		expect(result.workflow?.nodes).toHaveLength(4);
		expect(result.issues[0]).toMatchObject({ code: 'OPTION_NOT_ALLOWED' });
	});

	it('edits a workflow: its code goes into the prompt; its id and node ids are kept', async () => {
		const first = await build([textReply(answer(hashAgent('SHA256')))]);
		const current = first.result.workflow!;
		await server?.close();
		const edited = hashAgent('SHA512');
		const { result, requests } = await build([textReply(answer(edited))], {
			from: current,
			request: 'Use SHA-512 instead',
		});
		const prompt = requests[0].body.messages[1].content;
		expect(prompt).toMatch(/^Change this existing workflow "Hasher"/);
		expect(prompt).toMatch(/n8n-nodes-base\.cryptoTool/);
		expect(prompt).not.toMatch(/position/);
		expect(prompt).toMatch(/The change:\nUse SHA-512 instead$/);
		expect(result.workflow?.id).toBe(current.id);
		expect(result.workflow?.nodes.map((node) => node.id)).toEqual(
			current.nodes.map((node) => node.id),
		);
		expect(result.workflow?.nodes.find((node) => node.name === 'Hash text')?.parameters.type).toBe(
			'SHA512',
		);
	});

	it('refuses to start without a key for a remote server, or without a model off OpenRouter', async () => {
		await expect(
			buildWorkflow({
				request: 'x',
				baseUrl: 'https://api.example.com/v1',
				model: 'm',
				env: {},
				...context,
			}),
		).rejects.toThrow(AgentConfigurationError);
		await expect(
			buildWorkflow({ request: 'x', baseUrl: 'http://127.0.0.1:9/v1', env: {}, ...context }),
		).rejects.toThrow(/No model for http:\/\/127\.0\.0\.1:9\/v1: give one with --model/);
	});
});
