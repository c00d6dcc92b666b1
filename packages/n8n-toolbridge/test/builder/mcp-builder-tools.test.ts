/**
 * `toolbridge mcp --builder` driven by the official MCP SDK Client over stdio: the builder's
 * search_nodes, get_nodes, validate_workflow (code and JSON, the agent's tools loaded) and
 * build_workflow (on a loopback fake model), with no workflow file.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
} from '../../../../test/support/fake-chat-server';
import { answer, builderContext, testCacheDir } from '../support/builder-context';
import { repoRoot, toolbridgeCommand } from '../support/toolbridge-process';

type CallResult = {
	content: Array<{ type: string; text: string }>;
	isError?: boolean;
	structuredContent?: Record<string, unknown>;
};

const code = (value: string) => `
const chat = trigger({ type: '@n8n/n8n-nodes-langchain.chatTrigger', version: 1.1, config: { name: 'Chat' } });
const model = languageModel({ type: '@n8n/n8n-nodes-langchain.lmChatOpenRouter', version: 1, config: { name: 'Model', parameters: { model: 'openai/gpt-4o-mini' }, credentials: { openRouterApi: newCredential('OpenRouter') } } });
const hash = tool({ type: 'n8n-nodes-base.cryptoTool', version: 2, config: { name: 'Hash text', parameters: { action: 'hash', type: 'SHA256', value: ${value}, toolDescription: 'Hashes a text' } } });
const agent = node({ type: '@n8n/n8n-nodes-langchain.agent', version: 3.1, config: { name: 'Agent', parameters: { promptType: 'auto', options: { systemMessage: 'Hash texts with the Hash text tool.' } }, subnodes: { model, tools: [hash] } } });
export default workflow('hasher', 'Hasher').add(chat).to(agent);`;

let client: Client;
let fake: FakeChatServer;

beforeAll(async () => {
	await builderContext(); // LangChain's descriptions in the cache the server reads
	fake = await startFakeChatServer({
		respond: ({ index }) =>
			index === 0
				? toolCallReply([{ name: 'search_nodes', arguments: { queries: ['hash'] } }])
				: textReply(answer(code("fromAi('text', 'The text to hash')"))),
	});
	const spec = toolbridgeCommand([
		'mcp',
		'--builder',
		'--base-url',
		fake.baseUrl,
		'--model',
		'fake/model',
	]);
	client = new Client({ name: 'toolbridge-builder-test', version: '1.0.0' });
	await client.connect(
		new StdioClientTransport({
			command: spec.command,
			args: spec.args,
			cwd: spec.cwd,
			env: { ...spec.env, TOOLBRIDGE_CACHE_DIR: testCacheDir },
			stderr: 'pipe',
		}),
	);
}, 120_000);

afterAll(async () => {
	await client?.close();
	await fake?.close();
});

const call = (name: string, args: Record<string, unknown>) =>
	client.callTool({ name, arguments: args }) as Promise<CallResult>;

describe('toolbridge mcp --builder (SDK Client, stdio)', () => {
	it('offers the four builder tools without a workflow file', async () => {
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name)).toEqual([
			'search_nodes',
			'get_nodes',
			'validate_workflow',
			'build_workflow',
		]);
		expect(tools[0].inputSchema).toMatchObject({ type: 'object', required: ['queries'] });
		expect(client.getInstructions()).toMatch(/Build n8n workflows/);
	});

	it('search_nodes and get_nodes answer from the real descriptions', async () => {
		const search = await call('search_nodes', { queries: ['slack', 'ai agent'] });
		expect(search.isError).toBeFalsy();
		expect(search.content[0].text).toMatch(/- n8n-nodes-base\.slack v/);
		expect(search.content[0].text).toMatch(/- @n8n\/n8n-nodes-langchain\.agent v3\.1 "AI Agent"/);
		const types = await call('get_nodes', {
			nodeIds: [{ nodeId: 'n8n-nodes-base.slack', resource: 'message', operation: 'post' }],
		});
		expect(types.content[0].text).toMatch(/```typescript[\s\S]*channelId/);
		const bad = await call('get_nodes', { nodeIds: 'n8n-nodes-base.nope' });
		expect(bad.content[0].text).toMatch(/Unknown node id "n8n-nodes-base\.nope"/);
	});

	it("validate_workflow: SDK code, checked and its agent's tools loaded, with the JSON n8n imports", async () => {
		const valid = await call('validate_workflow', {
			code: code("fromAi('text', 'The text to hash')"),
		});
		expect(valid.isError).toBeFalsy();
		expect(valid.structuredContent).toMatchObject({
			valid: true,
			agents: [{ agent: 'Agent', tools: ['Hash_text'], notLoaded: [] }],
			credentialsNeeded: [{ node: 'Model', type: 'openRouterApi', name: 'OpenRouter' }],
			workflow: { name: 'Hasher', nodes: expect.any(Array) },
		});
		const invalid = await call('validate_workflow', {
			code: code("expr(\"{{ $fromAI('text', 'The text', 'integer') }}\")"),
		});
		expect(invalid.structuredContent).toMatchObject({
			valid: false,
			issues: [expect.objectContaining({ code: 'TOOL_LOAD', node: 'Hash text', line: 4 })],
		});
		const hostile = await call('validate_workflow', {
			code: "const p = process.getBuiltinModule('fs');",
		});
		expect(hostile.structuredContent).toMatchObject({
			valid: false,
			issues: [expect.objectContaining({ source: 'parse', code: 'FORBIDDEN_NAME' })],
		});
	});

	it('validate_workflow: workflow JSON (an n8n export), and exactly one of code or workflow', async () => {
		const json = JSON.parse(
			readFileSync(`${repoRoot}/fixtures/workflows/crypto-agent.json`, 'utf8'),
		);
		const checked = await call('validate_workflow', { workflow: json });
		expect(
			(checked.structuredContent?.agents as Array<{ tools: string[] }>)[0].tools.length,
		).toBeGreaterThan(0);
		const neither = await call('validate_workflow', {});
		expect(neither).toMatchObject({
			isError: true,
			content: [{ text: expect.stringMatching(/exactly one of "code"/) }],
		});
	});

	it("build_workflow: the whole builder on the server's model", async () => {
		const built = await call('build_workflow', { request: 'A chat agent that hashes text' });
		expect(built.isError).toBeFalsy();
		const report = JSON.parse(built.content[0].text);
		expect(report).toMatchObject({
			valid: true,
			workflow: { name: 'Hasher' },
			agents: [{ agent: 'Agent', tools: ['Hash_text'] }],
			stats: { stopReason: 'valid', rounds: 1, modelCalls: 2, toolCalls: 1, model: 'fake/model' },
		});
		expect(
			fake.requests[0].body.tools.map((tool: { function: { name: string } }) => tool.function.name),
		).toEqual(['search_nodes', 'get_nodes']);
	});
});
