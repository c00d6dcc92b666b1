import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands';
import { runCli } from '../../src/cli/run-cli';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';

const root = resolve(__dirname, '../../../..');
const workflow = (name: string) => `fixtures/workflows/${name}`;
const apiKey = 'sk-or-test-4f9a1c2b7e';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Spawns the real CLI entry through tsx, without blocking this process (the fake server lives here). */
function spawnCli(
	args: string[],
	env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
	const home = mkdtempSync(join(tmpdir(), 'toolbridge-home-'));
	return new Promise((done, fail) => {
		const child = spawn(
			process.execPath,
			['--import', 'tsx', 'packages/n8n-toolbridge/src/cli/main.ts', ...args],
			{
				cwd: root,
				env: {
					PATH: process.env.PATH ?? '',
					HOME: home,
					TSX_TSCONFIG_PATH: 'packages/n8n-toolbridge/tsconfig.json',
					...env,
				},
			},
		);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
		child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
		const timer = setTimeout(() => child.kill(), 60_000);
		child.on('error', fail);
		child.on('close', (status) => {
			clearTimeout(timer);
			done({ status, stdout, stderr });
		});
	});
}

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

/** The last tool message the model was sent: what the real tool returned. */
function lastToolResult(request: FakeRequest): string {
	const tools = (request.body.messages as Array<{ role: string; content: string }>).filter(
		(message) => message.role === 'tool',
	);
	return tools.at(-1)?.content ?? '';
}

/** A model that hashes: first a Hash_text call, then an answer quoting the tool's result. */
function hashingModel(text: string) {
	return ({ index, body }: FakeRequest) =>
		index === 0
			? toolCallReply([{ id: 'call_hash', name: 'Hash_text', arguments: { text } }])
			: textReply(`The tool said: ${lastToolResult({ body } as FakeRequest)}`);
}

let server: FakeChatServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

describe('toolbridge run (spawned, loopback fake model)', () => {
	it('Agent Orchestrator: real Crypto tool, typed schema and node settings on the wire, answer on stdout, a line per step', async () => {
		server = await startFakeChatServer({ respond: hashingModel('hello toolbridge') });
		const result = await spawnCli([
			'run',
			workflow('crypto-agent.json'),
			'--prompt',
			'Hash "hello toolbridge"',
			'--base-url',
			server.baseUrl,
			'--api-key',
			apiKey,
		]);
		expect(result.stderr).not.toContain(apiKey);
		expect(result.status).toBe(0);
		expect(result.stdout).toBe(
			`The tool said: ${JSON.stringify([{ hash: sha256('hello toolbridge') }])}\n`,
		);
		expect(result.stderr).toMatch(
			/^step 1 \(model call 1\): Hash_text \{"text":"hello toolbridge"\} → \[\{"hash":"[0-9a-f]{64}"\}\] \[\d+ ms\]\n$/,
		);

		const [first, second] = server.requests;
		expect(server.requests).toHaveLength(2);
		expect(first.headers.authorization).toBe(`Bearer ${apiKey}`);
		expect(first.body).toMatchObject({
			model: 'openai/gpt-4.1-mini',
			temperature: 0.2,
			stream: true,
		});
		expect(first.body.messages).toEqual([
			{
				role: 'system',
				content: expect.stringMatching(
					/^You hash texts with the tools\. Never compute a hash yourself\. Timezone: Europe\/Berlin$/,
				),
			},
			{ role: 'user', content: 'Hash "hello toolbridge"' },
		]);
		expect(first.body.tools).toEqual([
			{
				type: 'function',
				function: {
					name: 'Hash_text',
					description: 'Computes the SHA-256 hash (hex) of a text',
					parameters: expect.objectContaining({
						type: 'object',
						properties: { text: { type: 'string', description: 'The text to hash' } },
						required: ['text'],
					}),
				},
			},
			expect.objectContaining({ function: expect.objectContaining({ name: 'MD5_text' }) }),
		]);
		expect(lastToolResult(second)).toBe(JSON.stringify([{ hash: sha256('hello toolbridge') }]));
	});

	it("n8n's AI Agent: its prompt, system message and chat-model sub-node; key and URL from the credentials file", async () => {
		server = await startFakeChatServer({ respond: hashingModel('abc') });
		const file = join(mkdtempSync(join(tmpdir(), 'toolbridge-cred-')), 'credentials.json');
		writeFileSync(file, JSON.stringify({ 'OpenRouter account': { apiKey, url: server.baseUrl } }));
		const result = await spawnCli([
			'run',
			workflow('n8n-ai-agent.json'),
			'--prompt',
			'abc',
			'--credentials',
			file,
			'--debug',
		]);
		expect(result.status).toBe(0);
		expect(result.stdout).toBe(`The tool said: ${JSON.stringify([{ hash: sha256('abc') }])}\n`);
		expect(result.stderr).toContain('[DEBUG] Executing tool: Hash_text with args: {"text":"abc"}');
		expect(result.stderr).toContain(
			`Agent "AI Agent" (@n8n/n8n-nodes-langchain.agent), model anthropic/claude-3.5-haiku at ${server.baseUrl}, tools: Hash_text`,
		);
		expect(result.stderr + result.stdout).not.toContain(apiKey);

		const [first] = server.requests;
		expect(first.headers.authorization).toBe(`Bearer ${apiKey}`);
		expect(first.body).toMatchObject({
			model: 'anthropic/claude-3.5-haiku',
			temperature: 0.1,
			max_tokens: 512,
		});
		expect(first.body.messages).toEqual([
			{ role: 'system', content: 'You are a precise assistant. Use the tools for every hash.' },
			{ role: 'user', content: 'Hash this text with SHA-256: abc' },
		]);
		expect(
			first.body.tools.map((tool: { function: { name: string } }) => tool.function.name),
		).toEqual(['Hash_text']);
	});

	it('no API key: a clear message naming every way to give one, exit 2', async () => {
		const result = await spawnCli(['run', workflow('crypto-agent.json'), '--prompt', 'hi']);
		expect(result.status).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toContain(
			'toolbridge run: No API key for https://openrouter.ai/api/v1. Give one with --api-key KEY, set OPENROUTER_API_KEY, or supply the credential "OpenRouter account" (type openRouterApi) of node "Agent Orchestrator" with --credentials FILE.',
		);
	});
});

describe('toolbridge run (in process)', () => {
	it('--json prints { output, steps, usage, iterations }; key from OPENROUTER_API_KEY, URL from OPENAI_BASE_URL', async () => {
		server = await startFakeChatServer({ respond: hashingModel('json please') });
		const { code, stdout, stderr } = await runInProcess(
			[
				'run',
				workflow('crypto-agent.json'),
				'--prompt',
				'hash it',
				'--json',
				'--model',
				'other/model',
			],
			{
				OPENROUTER_API_KEY: apiKey,
				OPENAI_BASE_URL: server.baseUrl,
			},
		);
		expect(stderr).toMatch(/^step 1 /);
		expect(code).toBe(0);
		const printed = JSON.parse(stdout);
		expect(Object.keys(printed)).toEqual(['output', 'steps', 'usage', 'iterations']);
		expect(printed).toMatchObject({
			output: `The tool said: ${JSON.stringify([{ hash: sha256('json please') }])}`,
			steps: [
				{
					iteration: 1,
					toolCallId: 'call_hash',
					tool: 'Hash_text',
					arguments: { text: 'json please' },
					isError: false,
					data: [{ hash: sha256('json please') }],
				},
			],
			usage: { promptTokens: 24, cost: 0.000084 },
			iterations: 2,
		});
		expect(server.requests[0].body.model).toBe('other/model');
		expect(server.requests[0].headers.authorization).toBe(`Bearer ${apiKey}`);
	});

	it('an n8n AI Agent without a chat model needs --model (exit 2); with it, it runs against a localhost server without a key', async () => {
		const directory = mkdtempSync(join(tmpdir(), 'toolbridge-wf-'));
		const file = join(directory, 'no-model.json');
		// The same workflow with the chat model's connection removed.
		writeFileSync(
			file,
			readFileSync(join(root, workflow('n8n-ai-agent.json')), 'utf8').replace(
				/"ai_languageModel"/g,
				'"ai_unused"',
			),
		);
		const missing = await runInProcess(['run', file, '--prompt', 'x']);
		expect(missing.code).toBe(2);
		expect(missing.stderr).toContain(
			'Cannot tell which model AI Agent "AI Agent" uses: it has no chat model connected to its ai_languageModel input. Give one with --model.',
		);

		server = await startFakeChatServer({ respond: () => textReply('No tools needed.') });
		const ran = await runInProcess([
			'run',
			file,
			'--prompt',
			'x',
			'--model',
			'local/llama',
			'--base-url',
			server.baseUrl,
		]);
		expect(ran).toMatchObject({ code: 0, stdout: 'No tools needed.\n' });
		expect(server.requests[0].headers.authorization).toBeUndefined();
		expect(server.requests[0].body).toMatchObject({
			model: 'local/llama',
			messages: [
				{ role: 'system', content: 'You are a precise assistant. Use the tools for every hash.' },
				{ role: 'user', content: 'Hash this text with SHA-256: x' },
			],
		});
	});

	it('a model error exits 1 with the provider message and without the key', async () => {
		server = await startFakeChatServer({
			respond: () => ({
				status: 401,
				errorBody: { error: { code: 401, message: 'User not found.' } },
			}),
		});
		const { code, stdout, stderr } = await runInProcess([
			'run',
			workflow('crypto-agent.json'),
			'--prompt',
			'hi',
			'--base-url',
			server.baseUrl,
			'--api-key',
			apiKey,
			'--debug',
		]);
		expect(code).toBe(1);
		expect(stdout).toBe('');
		expect(stderr).toContain('User not found.');
		expect(stderr).not.toContain(apiKey);
	});
});
