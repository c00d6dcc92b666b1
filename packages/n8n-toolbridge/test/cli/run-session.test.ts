/**
 * `toolbridge run --session` (the built CLI, `npm run build`): two invocations with one session
 * continue one conversation — the second's model request holds the first turn — kept by
 * default in the cache folder (TOOLBRIDGE_CACHE_DIR/sessions), so two processes share it.
 * Without --session a run is one-off. A --store that is no store exits 2.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	type FakeChatServer,
} from '../../../../test/support/fake-chat-server';
import { repoRoot } from '../support/toolbridge-process';

const bin = join(repoRoot, 'packages/n8n-toolbridge/bin/toolbridge.js');
const built = existsSync(join(repoRoot, 'packages/n8n-toolbridge/dist/cli/main.js'));

function runBuilt(args: string[], env: Record<string, string>) {
	const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, env });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (data: Buffer) => (stdout += data));
	child.stderr.on('data', (data: Buffer) => (stderr += data));
	return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
		child.once('exit', (status) => resolve({ status, stdout, stderr })),
	);
}

describe.skipIf(!built)(
	'toolbridge run --session (built CLI; skipped before npm run build)',
	() => {
		let model: FakeChatServer;
		const cache = mkdtempSync(join(tmpdir(), 'toolbridge-run-session-'));
		let env: Record<string, string>;
		const run = (...args: string[]) =>
			runBuilt(
				['run', 'fixtures/workflows/memory-chat-agent.json', '--base-url', model.baseUrl, ...args],
				env,
			);

		beforeAll(async () => {
			model = await startFakeChatServer({
				respond: (request) => {
					const messages = request.body.messages as Array<{ role: string; content: string }>;
					return textReply(`answer to "${messages.at(-1)?.content}"`);
				},
			});
			env = {
				PATH: process.env.PATH ?? '',
				HOME: mkdtempSync(join(tmpdir(), 'toolbridge-home-')),
				TOOLBRIDGE_CACHE_DIR: cache,
				OPENAI_API_KEY: 'sk-fake',
			};
		});
		afterAll(async () => model?.close());

		it('two runs with one --session continue one conversation', async () => {
			const first = await run(
				'--session',
				'alice',
				'--prompt',
				'My name is Alice',
				'--api-key',
				'sk-fake',
				'--model',
				'fake/m',
			);
			expect(first).toMatchObject({ status: 0, stdout: 'answer to "My name is Alice"\n' });
			expect(readdirSync(join(cache, 'sessions', 'values')).length).toBeGreaterThan(0);
			const second = await run(
				'--session',
				'alice',
				'--prompt',
				'What is my name?',
				'--api-key',
				'sk-fake',
				'--model',
				'fake/m',
			);
			expect(second.status).toBe(0);
			const sent = (model.requests.at(-1)?.body.messages as Array<{ content: string }>).map(
				(message) => message.content,
			);
			expect(sent).toEqual(
				expect.arrayContaining([
					'My name is Alice',
					'answer to "My name is Alice"',
					'What is my name?',
				]),
			);
			// Without --session: one-off, nothing of alice's conversation is sent.
			await run('--prompt', 'Who?', '--api-key', 'sk-fake', '--model', 'fake/m');
			const oneOff = (model.requests.at(-1)?.body.messages as Array<{ content: string }>).map(
				(message) => message.content,
			);
			expect(oneOff).not.toContain('My name is Alice');
		}, 120_000);

		it('a --store that is neither a URL toolbridge knows nor a path exits 2 naming what is allowed', async () => {
			const result = await run(
				'--session',
				'x',
				'--store',
				'mongodb://127.0.0.1/x',
				'--prompt',
				'hi',
			);
			expect(result.status).toBe(2);
			expect(result.stderr).toContain('redis://');
			expect(result.stderr).not.toContain('    at ');
		}, 60_000);
	},
);
