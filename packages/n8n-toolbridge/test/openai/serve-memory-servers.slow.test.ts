/**
 * `toolbridge serve` on an agent whose memory is n8n's Postgres Chat Memory or Redis Chat
 * Memory, on real throw-away servers (skipped, saying why, where the programs are missing): two
 * Chat Completions requests with one `x-session-id` — the client sending only its new message —
 * and the model's second request holds the first turn, read back from the database by n8n's own
 * node code. The real CLI process, the official `openai` client, a loopback fake model.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';
import {
	startPostgres,
	startRedis,
	type Started,
} from '../../../../test/support/throwaway-servers';
import {
	repoRoot,
	startToolbridgeServer,
	type ToolbridgeServer,
} from '../support/toolbridge-process';

const agent = 'Chat Agent';
const folder = mkdtempSync(join(tmpdir(), 'toolbridge-serve-memory-'));

function echoModel(request: FakeRequest) {
	const messages = request.body.messages as Array<{ role: string; content: string }>;
	return textReply(`answer to "${messages.filter((m) => m.role === 'user').at(-1)?.content}"`);
}

/** The memory chat fixture with `memory` in place of its Simple Memory, written to a file. */
function workflowWith(memory: object, name: string): string {
	const workflow = JSON.parse(
		readFileSync(join(repoRoot, 'fixtures/workflows/memory-chat-agent.json'), 'utf8'),
	) as { id: string; nodes: Array<{ name: string }>; connections: Record<string, unknown> };
	workflow.id = `serve-memory-${name}`;
	workflow.nodes = workflow.nodes.map((node) =>
		node.name === 'Simple Memory' ? { ...node, ...memory, name: 'Simple Memory' } : node,
	);
	const file = join(folder, `${name}.json`);
	writeFileSync(file, JSON.stringify(workflow));
	return file;
}

let model: FakeChatServer;
let postgres: Started;
let redis: Started;
beforeAll(async () => {
	model = await startFakeChatServer({ respond: echoModel });
	[postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
}, 120_000);
afterAll(async () => {
	await model?.close();
	await Promise.all(
		[postgres, redis].map((started) =>
			started && 'server' in started ? started.server.stop() : undefined,
		),
	);
});

const memories = [
	{
		name: 'postgres',
		started: () => postgres,
		node: {
			type: '@n8n/n8n-nodes-langchain.memoryPostgresChat',
			typeVersion: 1.3,
			parameters: { sessionIdType: 'fromInput', contextWindowLength: 5 },
			credentials: { postgres: { id: 'pg', name: 'Postgres account' } },
		},
		credentials: (port: number) => ({
			'Postgres account': {
				host: '127.0.0.1',
				port,
				database: 'postgres',
				user: 'postgres',
				password: '',
				ssl: 'disable',
			},
		}),
	},
	{
		name: 'redis',
		started: () => redis,
		node: {
			type: '@n8n/n8n-nodes-langchain.memoryRedisChat',
			typeVersion: 1.5,
			parameters: { sessionIdType: 'fromInput', contextWindowLength: 5 },
			credentials: { redis: { id: 'rd', name: 'Redis account' } },
		},
		credentials: (port: number) => ({
			'Redis account': { host: '127.0.0.1', port, database: 0, password: '' },
		}),
	},
];

describe.each(memories)('toolbridge serve with n8n $name chat memory', (memory) => {
	let server: ToolbridgeServer | undefined;
	afterAll(async () => {
		await server?.stop();
	});

	it('x-session-id: the second turn reaches the model holding the first, from the database', async (context) => {
		const started = memory.started();
		if ('skip' in started) return context.skip(started.skip);
		const credentials = join(folder, `${memory.name}-credentials.json`);
		writeFileSync(credentials, JSON.stringify(memory.credentials(started.server.port)));
		server = await startToolbridgeServer(
			[
				...['serve', workflowWith(memory.node, memory.name), '--port', '0'],
				...['--credentials', credentials, '--base-url', model.baseUrl],
				...['--api-key', 'sk-fake', '--model', 'fake/memory'],
			],
			{},
		);
		const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
		const headers = { 'x-session-id': `${memory.name}-session` };
		await client.chat.completions.create(
			{ model: agent, messages: [{ role: 'user', content: 'I am Ada' }] },
			{ headers },
		);
		const second = await client.chat.completions.create(
			{ model: agent, messages: [{ role: 'user', content: 'who am I?' }] },
			{ headers },
		);
		expect(second.choices[0]?.message.content).toBe('answer to "who am I?"');
		const sent = (model.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>)
			.filter((message) => message.role !== 'system')
			.map((message) => `${message.role}: ${message.content}`);
		expect(sent).toEqual(['user: I am Ada', 'assistant: answer to "I am Ada"', 'user: who am I?']);
	}, 120_000);
});
