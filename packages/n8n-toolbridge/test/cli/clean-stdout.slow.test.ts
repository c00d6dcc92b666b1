/**
 * stdout carries only what the command promises. The workflow's MCP Client Tool (n8n's node)
 * points at a server that is not there: n8n's node logs "MCP client: Failed to connect to MCP
 * Server" through n8n's logger when it is supplied, in every command. That line (and anything a
 * library writes to stdout) goes to stderr: `tools --json`, `call`, `run --json` print JSON or
 * the result only, and `mcp` over stdio writes nothing but JSON-RPC. The real CLI process; the
 * agent's model is a loopback fake.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';
import { runToolbridge, toolbridgeCommand } from '../support/toolbridge-process';

const workflow = 'fixtures/workflows/unreachable-mcp-server.json';
const nodeLog = 'MCP client: Failed to connect to MCP Server';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let model: FakeChatServer;
let env: Record<string, string>;

beforeAll(async () => {
	model = await startFakeChatServer({
		respond: (request: FakeRequest) => {
			const messages = request.body.messages as Array<{ role: string; content: string }>;
			if (messages.at(-1)?.role === 'tool') return textReply(`Done: ${messages.at(-1)?.content}`);
			return toolCallReply([{ id: 'call_1', name: 'Hash_text', arguments: { text: 'abc' } }]);
		},
	});
	env = {
		TOOLBRIDGE_CREDENTIALS: JSON.stringify({
			'OpenRouter account': { apiKey: 'sk-model-fake', url: model.baseUrl },
		}),
	};
});

afterAll(() => model?.close());

// Each case is its own CLI process: run them side by side.
describe.concurrent('stdout with a node that logs', () => {
	it('tools --json --skip-unavailable: stdout is one JSON document; the log and the skip note are on stderr', async () => {
		const result = await runToolbridge(['tools', workflow, '--json', '--skip-unavailable'], env);
		expect(result.status).toBe(0);
		const listed = JSON.parse(result.stdout) as {
			agents: Array<{ tools: Array<{ name: string }> }>;
		};
		expect(listed.agents[0].tools.map((tool) => tool.name)).toEqual(['Hash_text']);
		expect(result.stderr).toContain(nodeLog);
		expect(result.stderr).toContain('Skipped 1 tool that cannot be served');
	}, 240_000);

	it('call: stdout is the result alone (and with --json, one JSON document)', async () => {
		const [plain, json] = await Promise.all([
			runToolbridge(
				['call', workflow, 'Hash_text', '--args', '{"text":"abc"}', '--skip-unavailable'],
				env,
			),
			runToolbridge(
				['call', workflow, 'Hash_text', '--args', '{"text":"abc"}', '--skip-unavailable', '--json'],
				env,
			),
		]);
		expect(plain.status).toBe(0);
		expect(plain.stdout).toBe(`${JSON.stringify([{ hash: sha256('abc') }])}\n`);
		expect(plain.stderr).toContain(nodeLog);
		expect(json.status).toBe(0);
		expect(JSON.parse(json.stdout)).toMatchObject({ tool: 'Hash_text', isError: false });
		expect(json.stderr).toContain(nodeLog);
	}, 240_000);

	it('run --json: stdout is one JSON document', async () => {
		const result = await runToolbridge(
			['run', workflow, '--prompt', 'abc', '--json', '--skip-unavailable'],
			env,
		);
		expect(result.status).toBe(0);
		const printed = JSON.parse(result.stdout) as { output: string };
		expect(printed.output).toBe(`Done: ${JSON.stringify([{ hash: sha256('abc') }])}`);
		expect(result.stderr).toContain(nodeLog);
	}, 240_000);

	it('mcp over stdio: every line on stdout is a JSON-RPC message, answering each request once', async () => {
		const spec = toolbridgeCommand(['mcp', workflow, '--skip-unavailable']);
		const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: { ...spec.env, ...env } });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (data: Buffer) => (stdout += data.toString('utf8')));
		child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
		const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
		const answered = (id: number) => stdout.split('\n').some((line) => line.includes(`"id":${id}`));
		const until = async (check: () => boolean) => {
			for (let waited = 0; !check(); waited += 50) {
				if (waited > 200_000) throw new Error(`no answer; stdout:\n${stdout}\nstderr:\n${stderr}`);
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
		};
		send({
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: {
				protocolVersion: '2025-06-18',
				capabilities: {},
				clientInfo: { name: 'raw-test', version: '1.0.0' },
			},
		});
		await until(() => answered(1));
		send({ jsonrpc: '2.0', method: 'notifications/initialized' });
		send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
		send({
			jsonrpc: '2.0',
			id: 3,
			method: 'tools/call',
			params: { name: 'Hash_text', arguments: { text: 'abc' } },
		});
		await until(() => answered(2) && answered(3));
		const exited = new Promise((resolve) => child.once('exit', resolve));
		child.stdin.end();
		await exited;

		const lines = stdout.split('\n').filter((line) => line !== '');
		const messages = lines.map((line) => JSON.parse(line) as { jsonrpc: string; id?: number });
		expect(messages.every((message) => message.jsonrpc === '2.0')).toBe(true);
		expect(messages.map((message) => message.id).filter((id) => id !== undefined)).toEqual([
			1, 2, 3,
		]);
		expect(stdout).toContain(sha256('abc'));
		expect(stderr).toContain(nodeLog);
	}, 240_000);
});
