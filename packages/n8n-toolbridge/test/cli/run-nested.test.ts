import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runWorkflowAgent } from 'n8n-nodes-toolbridge';
import { commands } from '../../src/cli/commands';
import { ownNodeTypes } from '../../src/cli/own-node-types';
import { runCli } from '../../src/cli/run-cli';
import { AgentStoppedError } from 'n8n-nodes-toolbridge';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeReply,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const root = resolve(__dirname, '../../../..');
const fixture = join(root, 'fixtures/workflows/nested-agents.json');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const coordinatorKey = 'sk-or-coordinator-1111';
const hashingKey = 'sk-or-hashing-2222';

// Each agent of the fixture names its own model, so the fake answers per agent.
const models = {
	coordinator: 'openai/gpt-4.1',
	writer: 'anthropic/claude-3.5-haiku',
	hasher: 'openai/gpt-4.1-mini',
};

async function runInProcess(args: string[], env: NodeJS.ProcessEnv = {}) {
	let stdout = '';
	let stderr = '';
	const code = await runCli(args, commands, {
		stdout: (text) => (stdout += text),
		stderr: (text) => (stderr += text),
		env,
	});
	return { code, stdout, stderr };
}

let server: FakeChatServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

/** `respond[model](request, nth call of that model, from 1)`. */
async function start(
	respond: Record<string, (request: FakeRequest, call: number) => FakeReply | Promise<FakeReply>>,
): Promise<FakeChatServer> {
	const calls: Record<string, number> = {};
	server = await startFakeChatServer({
		respond: (request) => {
			const model = request.body.model as string;
			calls[model] = (calls[model] ?? 0) + 1;
			return respond[model](request, calls[model]);
		},
	});
	return server;
}

const toolMessages = (request: FakeRequest): Array<{ tool_call_id: string; content: string }> =>
	(request.body.messages as Array<{ role: string; tool_call_id: string; content: string }>).filter(
		(message) => message.role === 'tool',
	);
const requestsOf = (model: string) =>
	server!.requests.filter((request) => request.body.model === model);

/** The Hash Agent: hashes with its real Crypto tool, then answers quoting the tool's result. */
const hasher = (text: string) => (request: FakeRequest, call: number) =>
	call === 1
		? toolCallReply([{ id: 'call_hash', name: 'Hash_text', arguments: { text } }])
		: textReply(`SHA-256 of ${text}: ${toolMessages(request).at(-1)?.content}`);

/** The fixture with edits, as a temp file. */
function variant(edit: (workflow: Json) => void): string {
	const workflow = JSON.parse(readFileSync(fixture, 'utf8'));
	edit(workflow);
	const file = join(mkdtempSync(join(tmpdir(), 'toolbridge-nested-')), 'nested.json');
	writeFileSync(file, JSON.stringify(workflow));
	return file;
}

function credentialsFile(baseUrl: string): string {
	const file = join(mkdtempSync(join(tmpdir(), 'toolbridge-cred-')), 'credentials.json');
	writeFileSync(
		file,
		JSON.stringify({
			'OpenRouter account': { apiKey: coordinatorKey, url: baseUrl },
			'Hashing key': { apiKey: hashingKey, url: baseUrl },
		}),
	);
	return file;
}

describe('toolbridge tools: a nested orchestrator is a tool of its parent', () => {
	it('the top-level agent is found without --agent; children are listed with n8n tool names, descriptions and $fromAI schemas', async () => {
		const { code, stdout, stderr } = await runInProcess(['tools', fixture, '--json']);
		expect(stderr).toBe('');
		expect(code).toBe(0);
		const { agents } = JSON.parse(stdout);
		expect(agents.map((agent: Json) => [agent.agent, agent.type])).toEqual([
			['Coordinator', 'n8n-nodes-toolbridge.agentOrchestrator'],
		]);
		expect(agents[0].tools).toEqual([
			{
				name: 'Writer_Agent',
				node: 'Writer Agent',
				nodeType: 'n8n-nodes-toolbridge.agentOrchestrator',
				description: 'Writes a short text about a topic, at most the given number of words',
				parameters: expect.objectContaining({
					type: 'object',
					properties: {
						topic: { type: 'string', description: 'The topic to write about' },
						words: { type: 'number', description: 'Maximum number of words', default: 50 },
					},
					required: ['topic'],
				}),
			},
			{
				name: 'Hash_Agent',
				node: 'Hash Agent',
				nodeType: 'n8n-nodes-toolbridge.agentOrchestrator',
				description: 'Computes SHA-256 hashes of texts with a hashing tool and reports them',
				parameters: expect.objectContaining({
					properties: { task: { type: 'string', description: 'The task for this agent' } },
					required: ['task'],
				}),
			},
		]);
	});

	it('--agent picks a nested agent to list its own tools; the table marks nested agents', async () => {
		const child = await runInProcess(['tools', fixture, '--agent', 'Hash Agent', '--json']);
		expect(child.code).toBe(0);
		expect(JSON.parse(child.stdout).agents[0].tools.map((tool: Json) => tool.name)).toEqual([
			'Hash_text',
		]);
		const table = await runInProcess(['tools', fixture]);
		expect(table.stdout).toContain(
			'Agent "Coordinator" (n8n-nodes-toolbridge.agentOrchestrator): 2 tools',
		);
		expect(table.stdout).toContain(
			'Hash_Agent  (node "Hash Agent", n8n-nodes-toolbridge.agentOrchestrator, nested agent)',
		);
	});
});

describe('toolbridge run with nested agents', () => {
	it('a child that fails still rolls up the tokens it spent; the coordinator reads the failure', async () => {
		await start({
			[models.coordinator]: (request, call) =>
				call === 1
					? toolCallReply([
							{ id: 'call_hasher', name: 'Hash_Agent', arguments: { task: 'Hash the word "owl"' } },
						])
					: textReply(`Saw: ${toolMessages(request)[0].content}`),
			// One answered call (its tool runs for real), then the provider refuses the next.
			[models.hasher]: (_request, call) =>
				call === 1
					? toolCallReply([{ id: 'call_hash', name: 'Hash_text', arguments: { text: 'owl' } }])
					: { status: 400, errorBody: { error: { code: 400, message: 'context too long' } } },
		});
		const { code, stdout } = await runInProcess([
			'run',
			fixture,
			'--prompt',
			'Hash "owl"',
			'--credentials',
			credentialsFile(server!.baseUrl),
			'--json',
		]);
		expect(code).toBe(0);
		const printed = JSON.parse(stdout);
		expect(printed.steps.map((step: Json) => [step.tool, step.isError])).toEqual([
			['Hash_Agent', true],
		]);
		expect(printed.output).toMatch(/^Saw: .*context too long/);
		// 2 coordinator calls + the hasher's one answered call count; its refused call has no usage.
		expect(server!.requests).toHaveLength(4);
		expect(printed.usage.promptTokens).toBe(36);
	});

	it('each child runs its own loop, model and credential; answers come back as plain text; usage rolls up', async () => {
		await start({
			[models.coordinator]: (request, call) =>
				call === 1
					? toolCallReply([
							{
								id: 'call_writer',
								name: 'Writer_Agent',
								arguments: { topic: 'owls', words: '20' },
							},
							{ id: 'call_hasher', name: 'Hash_Agent', arguments: { task: 'Hash the word "owl"' } },
						])
					: textReply(
							`Done. ${toolMessages(request)
								.map((message) => message.content)
								.join(' | ')}`,
						),
			[models.writer]: () => textReply('Owls hunt quietly at night.'),
			[models.hasher]: hasher('owl'),
		});
		const { code, stdout, stderr } = await runInProcess([
			'run',
			fixture,
			'--prompt',
			'Write about owls and hash "owl"',
			'--credentials',
			credentialsFile(server!.baseUrl),
			'--json',
		]);
		expect(stderr).not.toMatch(/sk-or-/);
		expect(code).toBe(0);
		const answerOfHasher = `SHA-256 of owl: ${JSON.stringify([{ hash: sha256('owl') }])}`;
		const printed = JSON.parse(stdout);
		expect(printed.output).toBe(`Done. Owls hunt quietly at night. | ${answerOfHasher}`);
		expect(printed.steps.map((step: Json) => [step.tool, step.result, step.isError])).toEqual([
			['Writer_Agent', 'Owls hunt quietly at night.', false],
			['Hash_Agent', answerOfHasher, false],
		]);
		// 2 coordinator + 1 writer + 2 hasher calls, 12 prompt tokens and $0.000042 each (the fake's usage).
		expect(server!.requests).toHaveLength(5);
		expect(printed.usage.promptTokens).toBe(60);
		expect(printed.usage.cost).toBeCloseTo(5 * 0.000042, 10);

		const [writer] = requestsOf(models.writer);
		expect(writer.headers.authorization).toBe(`Bearer ${coordinatorKey}`);
		expect(writer.body).toMatchObject({ temperature: 0.7 });
		expect(writer.body.messages).toEqual([
			{ role: 'system', content: 'You are a concise writer.' },
			{ role: 'user', content: 'Write about owls in at most 20 words.' },
		]);
		const [hashFirst, hashSecond] = requestsOf(models.hasher);
		expect(hashFirst.headers.authorization).toBe(`Bearer ${hashingKey}`);
		expect(hashFirst.body.messages.at(-1)).toEqual({
			role: 'user',
			content: 'Hash the word "owl"',
		});
		expect(hashFirst.body.tools.map((tool: Json) => tool.function.name)).toEqual(['Hash_text']);
		// The real Crypto node ran inside the child.
		expect(toolMessages(hashSecond)[0].content).toBe(JSON.stringify([{ hash: sha256('owl') }]));
		const [coordinatorFirst] = requestsOf(models.coordinator);
		expect(coordinatorFirst.headers.authorization).toBe(`Bearer ${coordinatorKey}`);
		expect(coordinatorFirst.body.tools.map((tool: Json) => tool.function.name)).toEqual([
			'Writer_Agent',
			'Hash_Agent',
		]);
	});

	it('recursively: a grandchild runs under its parent child; debug lines carry the agent path; the depth limit is a clear observation', async () => {
		// Coordinator › Hash Agent › Writer Agent, and the writer allows 2 levels only.
		const file = variant((workflow) => {
			workflow.connections['Writer Agent'].ai_tool[0][0].node = 'Hash Agent';
			workflow.nodes.find((node: Json) => node.name === 'Writer Agent').parameters.maxDepth = 2;
		});
		await start({
			[models.coordinator]: (request, call) =>
				call === 1
					? toolCallReply([
							{ id: 'call_hasher', name: 'Hash_Agent', arguments: { task: 'Write about owls' } },
						])
					: textReply(`Coordinator got: ${toolMessages(request)[0].content}`),
			[models.hasher]: (request, call) =>
				call === 1
					? toolCallReply([
							{ id: 'call_writer', name: 'Writer_Agent', arguments: { topic: 'owls' } },
						])
					: textReply(`Hasher got: ${toolMessages(request)[0].content}`),
			[models.writer]: () => textReply('never asked'),
		});
		const { code, stdout, stderr } = await runInProcess([
			'run',
			file,
			'--prompt',
			'go',
			'--base-url',
			server!.baseUrl,
			'--api-key',
			coordinatorKey,
			'--debug',
		]);
		expect(code).toBe(0);
		expect(requestsOf(models.writer)).toHaveLength(0);
		const refusal =
			'Agent nesting too deep: Coordinator › Hash Agent › Writer Agent is 3 agents deep and the limit is 2';
		expect(stdout).toContain(`Coordinator got: Hasher got: `);
		expect(stdout).toContain(refusal);
		expect(stderr).toContain(
			'[DEBUG] [Coordinator › Hash Agent] Executing tool: Writer_Agent with args: {"topic":"owls"}',
		);
		expect(stderr).toContain('Agent "Coordinator › Hash Agent" used');
		expect(stderr).not.toContain(coordinatorKey);
	});

	it("the parent's abort reaches a running child", async () => {
		const controller = new AbortController();
		await start({
			[models.coordinator]: () =>
				toolCallReply([{ id: 'call_hasher', name: 'Hash_Agent', arguments: { task: 'Hash "x"' } }]),
			[models.hasher]: () => {
				setTimeout(() => controller.abort(), 10);
				return textReply('too late', { reply: { stallAfterChunks: 1 } });
			},
			[models.writer]: () => textReply('unused'),
		});
		const running = runWorkflowAgent(fixture, {
			prompt: 'x',
			baseUrl: server!.baseUrl,
			apiKey: coordinatorKey,
			env: {},
			signal: controller.signal,
			nodeTypes: ownNodeTypes,
		});
		await expect(running).rejects.toBeInstanceOf(AgentStoppedError);
		// The child's stalled stream was cancelled, not left hanging.
		await requestsOf(models.hasher)[0].closed;
	});

	it('a nested agent chosen with --agent is refused with the call to make instead', async () => {
		const { code, stderr } = await runInProcess([
			'run',
			fixture,
			'--agent',
			'Hash Agent',
			'--prompt',
			'x',
			'--api-key',
			coordinatorKey,
		]);
		expect(code).toBe(2);
		expect(stderr).toContain(`toolbridge call <workflow.json> Hash_Agent --args '{"task":"…"}'`);
	});
});

describe('toolbridge call of a nested agent', () => {
	it('runs the child with its own tools; --json adds its usage', async () => {
		await start({
			[models.hasher]: hasher('cli'),
			[models.coordinator]: () => textReply('unused'),
			[models.writer]: () => textReply('unused'),
		});
		const { code, stdout, stderr } = await runInProcess([
			'call',
			fixture,
			'Hash_Agent',
			'--args',
			'{"task":"Hash cli"}',
			'--base-url',
			server!.baseUrl,
			'--api-key',
			hashingKey,
			'--json',
		]);
		expect(code).toBe(0);
		expect(stderr).toMatch(/^step 1 \(model call 1\): Hash_text \{"text":"cli"\}/);
		expect(JSON.parse(stdout)).toMatchObject({
			tool: 'Hash_Agent',
			isError: false,
			content: `SHA-256 of cli: ${JSON.stringify([{ hash: sha256('cli') }])}`,
			usage: { promptTokens: 24 },
		});
		expect(requestsOf(models.hasher)[0].body.messages.at(-1)).toEqual({
			role: 'user',
			content: 'Hash cli',
		});
	});

	it('without an API key the call fails with a message naming how to give one (exit 1); bad arguments never reach a model', async () => {
		const missing = await runInProcess([
			'call',
			fixture,
			'Writer Agent',
			'--args',
			'{"topic":"owls"}',
		]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain(
			'No API key for https://openrouter.ai/api/v1. Give one with --api-key KEY',
		);
		const bad = await runInProcess([
			'call',
			fixture,
			'Writer_Agent',
			'--args',
			'{"words":"many"}',
			'--api-key',
			coordinatorKey,
		]);
		expect(bad.code).toBe(1);
		expect(bad.stderr).toContain('"topic"');
	});
});
