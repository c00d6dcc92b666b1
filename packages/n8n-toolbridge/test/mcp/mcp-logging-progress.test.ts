/**
 * Logging and progress of `toolbridge mcp`, the real CLI over stdio driven by the official MCP
 * SDK v1 Client (2025 handshake) and v2 client pinned to 2026-07-28, on the conformance suite's fixture (real n8n Code Tools run
 * through n8n's task runner in-process): what the suite checks over HTTP
 * (`npm run test:conformance`), over stdio, plus what it does not check — the level a client
 * sets filters the lines, and a secret the session knows never leaves in a log line.
 */
import type { Client as V2Client } from '@modelcontextprotocol/client';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
	LoggingMessageNotificationSchema,
	type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { v2StdioClient } from '../support/mcp-v2-clients';
import { repoRoot, toolbridgeCommand } from '../support/toolbridge-process';

const secret = 'sk-log-secret-abcdef-123456';

/** The conformance fixture plus a Code Tool that logs the session's API key. */
function workflowFile(): string {
	const workflow = JSON.parse(
		readFileSync(join(repoRoot, 'fixtures/workflows/conformance-tools.json'), 'utf8'),
	);
	workflow.nodes.push({
		id: 'log_secret',
		name: 'log_secret',
		type: '@n8n/n8n-nodes-langchain.toolCode',
		typeVersion: 1.3,
		position: [800, 240],
		parameters: {
			description: 'Logs a line with a secret in it',
			language: 'javaScript',
			jsCode: `console.log("the key is ${secret}", { key: "${secret}" });\nreturn "logged";`,
			specifyInputSchema: true,
			schemaType: 'manual',
			inputSchema: '{"type":"object","properties":{}}',
		},
	});
	workflow.connections.log_secret = {
		ai_tool: [[{ node: 'Conformance Agent', type: 'ai_tool', index: 0 }]],
	};
	const file = join(mkdtempSync(join(tmpdir(), 'toolbridge-logging-')), 'workflow.json');
	writeFileSync(file, JSON.stringify(workflow));
	return file;
}

// The first call loads n8n's task runner (tsx compiles on the fly): slow on a busy machine.
describe(
	'toolbridge mcp over stdio: logging and progress (SDK v1 Client)',
	{ timeout: 120_000 },
	() => {
		let client: Client;
		let logs: LoggingMessageNotification['params'][] = [];

		beforeAll(async () => {
			const spec = toolbridgeCommand(['mcp', workflowFile(), '--api-key', secret]);
			client = new Client({ name: 'toolbridge-logging-test', version: '1.0.0' });
			client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
				logs.push(notification.params);
			});
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

		beforeEach(() => {
			logs = [];
		});

		afterAll(async () => {
			await client?.close();
		});

		it('declares tools and logging, nothing it does not offer', () => {
			const capabilities = client.getServerCapabilities();
			expect(capabilities).toEqual({ tools: { listChanged: false }, logging: {} });
		});

		it("sends the Code node's console lines as log notifications while the call runs", async () => {
			expect(await client.setLoggingLevel('debug')).toEqual({});
			const result = await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
			expect(result.isError).toBeFalsy();
			expect(logs).toEqual([
				{ level: 'info', logger: 'test_tool_with_logging', data: 'Tool execution started' },
				{ level: 'info', logger: 'test_tool_with_logging', data: 'Tool processing data' },
				{ level: 'info', logger: 'test_tool_with_logging', data: 'Tool execution completed' },
			]);
		});

		it('sends nothing below the level the client set', async () => {
			await client.setLoggingLevel('warning');
			await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
			expect(logs).toEqual([]);
			await client.setLoggingLevel('info');
		});

		it("redacts the session's secrets from log lines", async () => {
			await client.callTool({ name: 'log_secret', arguments: {} });
			expect(logs).toHaveLength(1);
			expect(JSON.stringify(logs)).not.toContain(secret);
			expect(logs[0].data).toContain('the key is [REDACTED]');
		});

		it('reports progress to a client that asks, increasing, while a slow node runs', async () => {
			const progress: Array<{ progress: number; message?: string }> = [];
			const result = await client.callTool(
				{ name: 'test_tool_with_progress', arguments: {} },
				undefined,
				{ onprogress: (update) => progress.push(update) },
			);
			expect(result.content).toEqual([{ type: 'text', text: 'Progress tool finished' }]);
			expect(progress.length).toBeGreaterThanOrEqual(3);
			expect(progress.map((update) => update.progress)).toEqual(
				[...progress.map((update) => update.progress)].sort((left, right) => left - right),
			);
			expect(progress[0].message).toBe('test_tool_with_progress: started');
		});
	},
);

describe(
	'toolbridge mcp over stdio, MCP 2026-07-28: the log level rides on the request',
	{ timeout: 120_000 },
	() => {
		let client: V2Client;
		let logs: Array<{ level: string; data: unknown; logger?: string }> = [];

		beforeAll(async () => {
			client = await v2StdioClient(['mcp', 'fixtures/workflows/conformance-tools.json'], 'modern');
			client.setNotificationHandler('notifications/message', (notification) => {
				logs.push(notification.params);
			});
		}, 120_000);

		beforeEach(() => {
			logs = [];
		});

		afterAll(async () => {
			await client?.close();
		});

		it("a call that carries a log level gets its node's lines; one without gets none", async () => {
			await client.callTool({
				name: 'test_tool_with_logging',
				arguments: {},
				_meta: { 'io.modelcontextprotocol/logLevel': 'info' },
			});
			expect(logs.map((line) => line.data)).toEqual([
				'Tool execution started',
				'Tool processing data',
				'Tool execution completed',
			]);
			logs = [];
			await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
			expect(logs).toEqual([]);
		});

		it('declares logging in server/discover too', () => {
			expect(client.getServerCapabilities()).toEqual({
				tools: { listChanged: false },
				logging: {},
			});
		});
	},
);
