/**
 * `toolbridge build` end to end: the real CLI process against a loopback fake model — the
 * workflow JSON on stdout or in --out, progress and cost on stderr, --json with stats, and the
 * exit codes (0 valid, 1 no valid workflow, 2 usage).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeReply,
} from '../../../../test/support/fake-chat-server';
import { commands } from '../../src/cli/commands';
import { runCli } from '../../src/cli/run-cli';
import { answer, builderContext, testCacheDir } from '../support/builder-context';
import { runToolbridge } from '../support/toolbridge-process';

let server: FakeChatServer | undefined;

beforeAll(async () => {
	await builderContext(); // LangChain's descriptions in the cache the CLI reads
}, 120_000);

afterEach(async () => {
	await server?.close();
	server = undefined;
});

const workflowCode = (type: string) => `
const chat = trigger({ type: '@n8n/n8n-nodes-langchain.chatTrigger', version: 1.1, config: { name: 'Chat' } });
const model = languageModel({ type: '@n8n/n8n-nodes-langchain.lmChatOpenRouter', version: 1, config: { name: 'Model', parameters: { model: 'openai/gpt-4o-mini' }, credentials: { openRouterApi: newCredential('OpenRouter') } } });
const hash = tool({ type: 'n8n-nodes-base.cryptoTool', version: 2, config: { name: 'Hash text', parameters: { action: 'hash', type: '${type}', value: fromAi('text', 'The text to hash'), toolDescription: 'Hashes a text' } } });
const agent = node({ type: '@n8n/n8n-nodes-langchain.agent', version: 3.1, config: { name: 'Agent', parameters: { promptType: 'auto', options: { systemMessage: 'Hash texts with the Hash text tool.' } }, subnodes: { model, tools: [hash] } } });
export default workflow('hasher', 'Hasher').add(chat).to(agent);`;

async function fakeModel(replies: FakeReply[]): Promise<string> {
	server = await startFakeChatServer({
		respond: ({ index }) => replies[Math.min(index, replies.length - 1)],
	});
	return server.baseUrl;
}

const env = { TOOLBRIDGE_CACHE_DIR: testCacheDir };

describe('toolbridge build (CLI process)', () => {
	it('prints progress, checks and cost on stderr and writes the valid workflow (exit 0)', async () => {
		const baseUrl = await fakeModel([
			toolCallReply([{ name: 'search_nodes', arguments: { queries: ['hash', 'ai agent'] } }]),
			toolCallReply([{ name: 'get_nodes', arguments: { nodeIds: ['n8n-nodes-base.cryptoTool'] } }]),
			textReply(answer(workflowCode('SHA999'))),
			textReply(answer(workflowCode('SHA256'))),
		]);
		const out = join(mkdtempSync(join(tmpdir(), 'toolbridge-build-')), 'built.json');
		const run = await runToolbridge(
			[
				'build',
				'A chat agent that hashes text',
				'--base-url',
				baseUrl,
				'--model',
				'fake/model',
				'--out',
				out,
			],
			env,
		);
		expect(run.status, run.stderr).toBe(0);
		expect(run.stdout).toBe('');
		const lines = run.stderr.split('\n');
		expect(lines[0]).toMatch(
			/^toolbridge build: node descriptions: n8n-nodes-base@2\.41\.1 \(\d+\), @n8n\/n8n-nodes-langchain@2\.41\.1/,
		);
		expect(run.stderr).toMatch(/toolbridge build: search_nodes: hash \| ai agent\n/);
		expect(run.stderr).toMatch(/toolbridge build: get_nodes: n8n-nodes-base\.cryptoTool\n/);
		expect(run.stderr).toMatch(
			/check 1: invalid, 1 error\(s\), 0 warning\(s\); agent "Agent": Hash_text → sent back for correction\n.*\[OPTION_NOT_ALLOWED\] node "Hash text" type \(line 3\)/,
		);
		expect(run.stderr).toMatch(
			/check 2: valid, 0 error\(s\), 0 warning\(s\); agent "Agent": Hash_text\n/,
		);
		expect(run.stderr).toMatch(
			/built a valid workflow in [\d.]+ s with fake\/model: 2 round\(s\), 4 model call\(s\), 2 tool call\(s\); \d+ tokens \(48 in, \d+ out\), cost \$0\.0002/,
		);
		expect(run.stderr).toMatch(
			/credential to set in n8n: openRouterApi "OpenRouter" \(node "Model"\)/,
		);
		expect(run.stderr).toMatch(/wrote .*built\.json \(import with: n8n import:workflow --input=/);
		const workflow = JSON.parse(readFileSync(out, 'utf8'));
		expect(workflow.nodes.map((node: { name: string }) => node.name)).toEqual([
			'Chat',
			'Agent',
			'Model',
			'Hash text',
		]);
		expect(workflow.id).toMatch(/^[A-Za-z0-9]{16}$/);
	}, 90_000);

	it('--json: the result and its stats; no valid workflow is exit 1', async () => {
		const unreadable = textReply(answer("let x = 1;\nexport default workflow('w', 'W');"));
		const baseUrl = await fakeModel([unreadable]);
		const run = await runToolbridge(
			['build', 'Anything', '--base-url', baseUrl, '--model', 'fake/model', '--json'],
			env,
		);
		expect(run.status).toBe(1);
		const result = JSON.parse(run.stdout);
		expect(result).toMatchObject({
			valid: false,
			issues: [expect.objectContaining({ source: 'parse', code: 'SDK_REJECTED' })],
			stats: {
				stopReason: 'parse-failures',
				rounds: 3,
				modelCalls: 3,
				model: 'fake/model',
				usage: { totalTokens: expect.any(Number) },
			},
		});
		expect(run.stderr).toMatch(/no valid workflow \(parse-failures\)/);
	}, 90_000);
});

describe('toolbridge build: usage errors (exit 2)', () => {
	const cli = async (args: string[], environment: NodeJS.ProcessEnv = {}) => {
		let stderr = '';
		const code = await runCli(args, commands, {
			stdout: () => {},
			stderr: (text) => (stderr += text),
			env: environment,
		});
		return { code, stderr };
	};

	it('no request, no key for a remote server, a bad --max-iterations', async () => {
		expect(await cli(['build'])).toEqual({
			code: 2,
			stderr: expect.stringMatching(/Say what the workflow should do/),
		});
		expect(await cli(['build', 'x', '--base-url', 'https://api.example.com/v1'])).toEqual({
			code: 2,
			stderr: expect.stringMatching(/No API key for https:\/\/api\.example\.com\/v1/),
		});
		expect(await cli(['build', 'x', '--max-iterations', '0'])).toEqual({
			code: 2,
			stderr: expect.stringMatching(/--max-iterations must be a positive integer/),
		});
	});

	it('is listed in the help', async () => {
		let stdout = '';
		await runCli(['--help'], commands, {
			stdout: (text) => (stdout += text),
			stderr: () => {},
			env: {},
		});
		expect(stdout).toMatch(/build\s+build an n8n workflow from a sentence/);
	});
});
