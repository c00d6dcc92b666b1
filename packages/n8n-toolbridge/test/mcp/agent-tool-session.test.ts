/**
 * The agent as an MCP tool (`toolbridge mcp --expose-agent`, the real CLI over stdio, the
 * official MCP client) with its `session` argument: two calls with one session continue one
 * conversation in the agent's Simple Memory (the model's second request holds the first
 * turn); a call without it is one-off; a bad session is an error result naming the argument.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';
import { toolbridgeCommand } from '../support/toolbridge-process';

type CallResult = { content: Array<{ type: string; text: string }>; isError?: boolean };

describe('toolbridge mcp --expose-agent: the session argument', () => {
	let client: Client;
	let model: FakeChatServer;
	const sent = () =>
		(model.requests.at(-1)?.body.messages as Array<{ content: string }>).map(
			(each) => each.content,
		);

	beforeAll(async () => {
		model = await startFakeChatServer({
			respond: (request: FakeRequest) =>
				textReply(`answer to "${request.body.messages.at(-1).content}"`),
		});
		const spec = toolbridgeCommand([
			'mcp',
			'fixtures/workflows/memory-chat-agent.json',
			'--expose-agent',
			'--store',
			mkdtempSync(join(tmpdir(), 'toolbridge-mcp-store-')),
			'--base-url',
			model.baseUrl,
			'--api-key',
			'sk-fake',
			'--model',
			'fake/memory',
		]);
		client = new Client({ name: 'toolbridge-test', version: '1.0.0' });
		await client.connect(
			new StdioClientTransport({
				command: spec.command,
				args: spec.args,
				cwd: spec.cwd,
				env: spec.env,
				stderr: 'pipe',
			}),
		);
	}, 120_000);

	afterAll(async () => {
		await client?.close();
		await model?.close();
	});

	it('two calls with one session continue one conversation; without it a call is one-off', async () => {
		const { tools } = await client.listTools();
		const agent = tools.find((tool) => tool.name === 'Chat_Agent');
		expect(agent?.inputSchema.properties).toHaveProperty('session');
		const call = (args: Record<string, unknown>) =>
			client.callTool({ name: 'Chat_Agent', arguments: args }) as Promise<CallResult>;
		expect(await call({ prompt: 'I like tea', session: 's-1' })).toMatchObject({
			content: [{ text: 'answer to "I like tea"' }],
		});
		await call({ prompt: 'what do I like?', session: 's-1' });
		expect(sent()).toEqual(expect.arrayContaining(['I like tea', 'answer to "I like tea"']));
		await call({ prompt: 'a one-off' });
		expect(sent()).not.toContain('I like tea');
		const bad = await call({ prompt: 'x', session: '' });
		expect(bad.isError).toBe(true);
		expect(bad.content[0]?.text).toContain('"session"');
	}, 60_000);
});
