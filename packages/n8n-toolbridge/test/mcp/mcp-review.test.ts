/**
 * Human review outside n8n, over MCP: the fixture's "Sign release" (a real Crypto tool) sits
 * behind n8n-nodes-base's Slack human-review node (`slackHitlTool`). Each call asks the
 * client's user — 2026's input_required round trip (HTTP and stdio, any replica), a 2025
 * elicitation over stdio — or is refused, never run unreviewed.
 */
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	v2HttpClient,
	v2StdioClient,
	type ApprovalAnswer,
	type ClientEra,
} from '../support/mcp-v2-clients';
import { startToolbridgeServer, type ToolbridgeServer } from '../support/toolbridge-process';

const workflow = ['mcp', 'fixtures/workflows/reviewed-tools.json'];
const signature = (text: string) => createHash('sha256').update(text).digest('hex');
type CallResult = {
	content: Array<{ type: string; text: string }>;
	isError?: boolean;
	structuredContent?: unknown;
};

const sign = (client: Client, text: string) =>
	client.callTool({ name: 'Sign_release', arguments: { text } }) as Promise<CallResult>;

function expectSigned(result: CallResult, text: string): void {
	expect(result.isError).toBeFalsy();
	expect(result.structuredContent).toEqual({ result: [{ signature: signature(text) }] });
}

describe('reviewed tools over Streamable HTTP (stateless)', () => {
	let server: ToolbridgeServer;
	const clients: Client[] = [];
	const connect = async (era: ClientEra, approval: ApprovalAnswer) => {
		const client = await v2HttpClient(`${server.url}/mcp`, era, { approval });
		clients.push(client);
		return client;
	};

	beforeAll(async () => {
		server = await startToolbridgeServer([...workflow, '--http', '127.0.0.1:0']);
	}, 120_000);

	afterAll(async () => {
		for (const client of clients) await client.close();
		expect(await server?.stop()).toBe(0);
	});

	it('2026: the call answers input_required; approved, it runs', async () => {
		const client = await connect('modern', 'approve');
		expectSigned(await sign(client, 'v1.2.0'), 'v1.2.0');
		expect(server.stderr()).toContain('tools/call Sign_release → asks for approval');
		expect(server.stderr()).toContain('tools/call Sign_release → ok');
	});

	it('2026: declined, it does not run and the model reads why', async () => {
		const client = await connect('modern', 'decline');
		const result = await sign(client, 'v1.2.1');
		expect(result.isError).toBe(true);
		expect(result.content[0].text).toContain(
			`declined it, so the tool was not run. Their feedback: "wrong release"`,
		);
	});

	it('a tool without a review gate runs without asking', async () => {
		const client = await connect('modern', 'none');
		const result = (await client.callTool({
			name: 'MD5_text',
			arguments: { text: 'x' },
		})) as CallResult;
		expect(result.isError).toBeFalsy();
	});

	it('2026 client that cannot ask its user, and any 2025 client over stateless HTTP: refused, not run', async () => {
		const before = server.stderr().length;
		for (const [era, approval] of [
			['modern', 'none'],
			['legacy', 'approve'],
		] as const) {
			const client = await connect(era, approval);
			const result = await sign(client, 'v9');
			expect(result.isError, `${era}/${approval}`).toBe(true);
			expect(result.content[0].text).toContain(
				`Not run: 'Sign_release' needs a person's approval (the workflow's "Ask the team in Slack" node gates it)`,
			);
			expect(result.content[0].text).toContain(
				'supports elicitation, over stdio or with protocol 2026-07-28',
			);
		}
		expect(server.stderr().slice(before)).not.toContain('tools/call Sign_release → ok [');
		expect(server.stderr().slice(before)).toContain('tools/call Sign_release → not reviewed');
	});
});

describe('reviewed tools over stdio', () => {
	const clients: Client[] = [];
	afterAll(async () => {
		for (const client of clients) await client.close();
	});

	it.each([
		['2026 (input_required)', 'modern'],
		['2025 (a real elicitation/create)', 'legacy'],
	] as const)(
		'%s: approved, it runs',
		async (_, era) => {
			const client = await v2StdioClient(workflow, era, { approval: 'approve' });
			clients.push(client);
			expectSigned(await sign(client, `stdio ${era}`), `stdio ${era}`);
		},
		120_000,
	);

	it('2025 client without the elicitation capability: refused', async () => {
		const client = await v2StdioClient(workflow, 'legacy', { approval: 'none' });
		clients.push(client);
		const result = await sign(client, 'nope');
		expect(result.isError).toBe(true);
		expect(result.content[0].text).toContain('nobody can review it here');
	}, 120_000);
});
