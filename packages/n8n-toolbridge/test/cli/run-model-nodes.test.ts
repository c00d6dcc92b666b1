/**
 * `toolbridge run` with n8n's AI Agent on a chat-model node other than OpenAI's: n8n's Ollama
 * Chat Model runs through its own node code against a loopback fake of Ollama's native API
 * (the credential from --credentials, the answer streamed to stdout) in a real CLI process;
 * `--model` / `--base-url` route the same agent through the built-in OpenAI-compatible client
 * instead; a model node without its credential is exit 2 naming node and credential type.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands';
import { runCli } from '../../src/cli/run-cli';
import {
	startFakeChatServer,
	textReply,
	type FakeChatServer,
} from '../../../../test/support/fake-chat-server';
import {
	modelAgentWorkflow,
	modelNode,
} from '../../../../test/hosts/standalone/models/model-agent-workflow';

const root = resolve(__dirname, '../../../..');
const model = 'qwen3:4b';
const directory = mkdtempSync(join(tmpdir(), 'toolbridge-models-'));
const workflowFile = join(directory, 'ollama-agent.json');
writeFileSync(
	workflowFile,
	JSON.stringify(
		modelAgentWorkflow(
			modelNode(
				'Ollama Chat Model',
				'lmChatOllama',
				1,
				{ model, options: { temperature: 0.3 } },
				{ ollamaApi: { id: 'l', name: 'Local Ollama' } },
			),
		),
	),
);

const line = (message: object, done = false, extra: object = {}) =>
	`${JSON.stringify({ model, created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', ...message }, done, ...extra })}\n`;

let ollama: FakeChatServer;
let credentialsFile: string;
beforeAll(async () => {
	ollama = await startFakeChatServer({
		respond: ({ body }) => {
			const tool = (body.messages as Array<{ role: string; content: string }>).find(
				(message) => message.role === 'tool',
			);
			const lines = tool
				? [
						line({ content: 'Local model: ' }),
						line({ content: tool.content }),
						line({ content: '' }, true, {
							done_reason: 'stop',
							prompt_eval_count: 20,
							eval_count: 5,
						}),
					]
				: [
						line({
							content: '',
							tool_calls: [{ function: { name: 'Shout', arguments: { input: 'cli' } } }],
						}),
						line({ content: '' }, true, {
							done_reason: 'stop',
							prompt_eval_count: 15,
							eval_count: 8,
						}),
					];
			return { rawSse: lines.join(''), headers: { 'Content-Type': 'application/x-ndjson' } };
		},
	});
	credentialsFile = join(directory, 'credentials.json');
	writeFileSync(
		credentialsFile,
		JSON.stringify({ 'Local Ollama': { baseUrl: ollama.baseUrl.replace(/\/v1$/, '') } }),
	);
});
afterAll(() => ollama.close());

function spawnCli(
	args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
	return new Promise((done, fail) => {
		const child = spawn(
			process.execPath,
			['--import', 'tsx', 'packages/n8n-toolbridge/src/cli/main.ts', ...args],
			{
				cwd: root,
				env: {
					PATH: process.env.PATH ?? '',
					HOME: mkdtempSync(join(tmpdir(), 'toolbridge-home-')),
					TSX_TSCONFIG_PATH: 'packages/n8n-toolbridge/tsconfig.json',
				},
			},
		);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
		child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
		child.on('error', fail);
		child.on('close', (status) => done({ status, stdout, stderr }));
	});
}

async function runInProcess(args: string[]) {
	let stdout = '';
	let stderr = '';
	const code = await runCli(args, commands, {
		stdout: (text) => (stdout += text),
		stderr: (text) => (stderr += text),
		env: {},
	});
	return { code, stdout, stderr };
}

describe('toolbridge run on a chat-model node other than OpenAI’s', () => {
	it("n8n's Ollama Chat Model through its own code: the tool runs once, the answer on stdout", async () => {
		const before = ollama.requests.length;
		const result = await spawnCli([
			'run',
			workflowFile,
			'--prompt',
			'Shout cli',
			'--credentials',
			credentialsFile,
			'--debug',
		]);
		expect(result.stdout).toBe('Local model: SHOUTED: CLI\n');
		expect(result.status).toBe(0);
		expect(result.stderr).toContain(
			`model ${model} from its node "Ollama Chat Model" (@n8n/n8n-nodes-langchain.lmChatOllama)`,
		);
		const requests = ollama.requests.slice(before);
		expect(requests.map((request) => request.path)).toEqual(['/api/chat', '/api/chat']);
		expect(requests[0].body).toMatchObject({
			model,
			options: { temperature: 0.3 },
			messages: [
				{ role: 'system', content: 'You shout.' },
				{ role: 'user', content: 'Shout cli' },
			],
		});
		const toolMessages = requests[1].body.messages.filter(
			(message: { role: string }) => message.role === 'tool',
		);
		expect(toolMessages).toEqual([expect.objectContaining({ content: 'SHOUTED: CLI' })]);
	}, 60_000);

	it('--model and --base-url route it through the built-in OpenAI-compatible client instead', async () => {
		const endpoint = await startFakeChatServer({ respond: () => textReply('One endpoint.') });
		const before = ollama.requests.length;
		try {
			const result = await runInProcess([
				'run',
				workflowFile,
				'--prompt',
				'hi',
				'--model',
				'router/any-model',
				'--base-url',
				endpoint.baseUrl,
			]);
			expect(result).toMatchObject({ code: 0, stdout: 'One endpoint.\n' });
			expect(endpoint.requests[0].path).toBe('/v1/chat/completions');
			expect(endpoint.requests[0].body.model).toBe('router/any-model');
			expect(ollama.requests.length).toBe(before);
		} finally {
			await endpoint.close();
		}
	}, 30_000);

	it('--base-url alone keeps the node’s model id', async () => {
		const endpoint = await startFakeChatServer({ respond: () => textReply('Same model.') });
		try {
			const result = await runInProcess([
				'run',
				workflowFile,
				'--prompt',
				'hi',
				'--base-url',
				endpoint.baseUrl,
			]);
			expect(result).toMatchObject({ code: 0, stdout: 'Same model.\n' });
			expect(endpoint.requests[0].body.model).toBe(model);
		} finally {
			await endpoint.close();
		}
	}, 30_000);

	it('without the model node’s credential: exit 2 naming the node and the credential type', async () => {
		const result = await runInProcess(['run', workflowFile, '--prompt', 'hi']);
		expect(result.code).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toContain(
			'chat model "Ollama Chat Model" (@n8n/n8n-nodes-langchain.lmChatOllama) of agent "AI Agent" needs credential "Local Ollama" (type ollamaApi), which was not supplied.',
		);
	}, 30_000);
});
