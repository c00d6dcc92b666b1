/**
 * `toolbridge mcp --expose-agent` on n8n's AI Agent with a Structured Output Parser: a call of the
 * agent as a tool answers the parsed object as JSON text. Official MCP client over stdio, real CLI
 * process, the parser node run by n8n's own code, a loopback fake model.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	type FakeChatServer,
} from '../../../../test/support/fake-chat-server';
import { toolbridgeCommand } from '../support/toolbridge-process';

const lyon = { city: 'Lyon', country: 'France', population: 520000 };

describe('toolbridge mcp --expose-agent: an agent with an output parser', () => {
	let client: Client;
	let model: FakeChatServer;

	beforeAll(async () => {
		model = await startFakeChatServer({
			respond: () => textReply(JSON.stringify({ output: lyon })),
		});
		const spec = toolbridgeCommand([
			'mcp',
			'fixtures/workflows/structured-output-agent.json',
			'--expose-agent',
			'--base-url',
			model.baseUrl,
			'--api-key',
			'sk-fake-model-key',
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

	it('the call answers the parsed object as JSON text', async () => {
		const result = await client.callTool({
			name: 'City_agent',
			arguments: { prompt: 'Tell me about Lyon.' },
		});
		expect(result.isError).toBeFalsy();
		const [content] = result.content as Array<{ type: string; text: string }>;
		expect(content.type).toBe('text');
		expect(JSON.parse(content.text)).toEqual(lyon);
		expect(model.requests[0].body.messages.at(-1)).toEqual({
			role: 'user',
			content: 'Tell me about Lyon.',
		});
	});
});
