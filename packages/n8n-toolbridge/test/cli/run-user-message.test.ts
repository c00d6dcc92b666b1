/**
 * `toolbridge run` and `runWorkflowAgent`: the user's message reaches the model whatever the
 * agent node's prompt reads; --input, --pin and the export's pinData feed `$json` and
 * `$('Node')` as in n8n; a reference that cannot resolve is a clear error; an agent without
 * tools runs. Real CLI in process, real n8n nodes, a loopback fake model.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runWorkflowAgent, UnresolvedNodeReferenceError } from 'n8n-nodes-toolbridge';
import { commands } from '../../src/cli/commands';
import { runCli } from '../../src/cli/run-cli';
import {
	startFakeChatServer,
	textReply,
	type FakeChatServer,
} from '../../../../test/support/fake-chat-server';

const root = resolve(__dirname, '../../../..');
const fixture = (name: string) => join(root, 'fixtures/workflows', name);
const apiKey = 'sk-or-user-message-5d1e';

let server: FakeChatServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function run(args: string[]) {
	server ??= await startFakeChatServer({ respond: () => textReply('Seven.') });
	let stdout = '';
	let stderr = '';
	const code = await runCli(
		[...args, '--base-url', server.baseUrl, '--api-key', apiKey],
		commands,
		{ stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: {} },
	);
	return { code, stdout, stderr, requests: server.requests };
}

/** The messages of the model's first request. */
const sent = (requests: FakeChatServer['requests']) =>
	requests[0].body.messages as Array<{ role: string; content: string }>;

/** The Telegram fixture without its pinData, in a temporary file. */
function telegramWithoutPinData(): string {
	const workflow = JSON.parse(readFileSync(fixture('telegram-agent.json'), 'utf8'));
	delete workflow.pinData;
	const file = join(mkdtempSync(join(tmpdir(), 'toolbridge-wf-')), 'telegram.json');
	writeFileSync(file, JSON.stringify(workflow));
	return file;
}

describe('toolbridge run: the user message', () => {
	it('a prompt that wraps {{ $json.chatInput }} keeps its wrapping, without a note', async () => {
		const result = await run(['run', fixture('n8n-ai-agent.json'), '--prompt', 'What is 2+2*3?']);
		expect(result.code).toBe(0);
		expect(sent(result.requests).at(-1)).toEqual({
			role: 'user',
			content: 'Hash this text with SHA-256: What is 2+2*3?',
		});
		expect(result.stderr).toBe('');
	});

	it('a prompt that reads {{ $json.body.text }}: --prompt is sent, a note says so; an agent without tools runs', async () => {
		const result = await run([
			'run',
			fixture('webhook-agent-no-tools.json'),
			'--prompt',
			'What is 2+2*3?',
		]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe('Seven.\n');
		expect(sent(result.requests)).toEqual([
			{ role: 'system', content: 'You answer questions sent to the  channel.' },
			{ role: 'user', content: 'What is 2+2*3?' },
		]);
		expect(result.requests[0].body.tools).toBeUndefined();
		expect(result.stderr).toBe(
			'Note: the prompt of "Answer agent" is "={{ $json.body.text }}", which does not read {{ $json.chatInput }}: --prompt was sent as the user message instead. To send the node\'s own prompt, give what it reads: --input JSON (its input item) and --pin NODE=JSON (other nodes\' output).\n',
		);
	});

	it('--input is the item the node receives: its own prompt and system message resolve from it, and the note says which prompt was sent', async () => {
		const result = await run([
			'run',
			fixture('webhook-agent-no-tools.json'),
			'--prompt',
			'ignored',
			'--input',
			JSON.stringify({ body: { text: 'What is 6*7?', channel: 'support' } }),
		]);
		expect(result.code).toBe(0);
		expect(sent(result.requests)).toEqual([
			{ role: 'system', content: 'You answer questions sent to the support channel.' },
			{ role: 'user', content: 'What is 6*7?' },
		]);
		expect(result.stderr).toBe(
			'Note: sent the node\'s own prompt of "Answer agent" over --input (it does not read --prompt): What is 6*7?\n',
		);
	});

	it("$('Telegram Trigger') reads the export's pinData: prompt (no --prompt), system message and tool description", async () => {
		const result = await run(['run', fixture('telegram-agent.json')]);
		expect(result.code).toBe(0);
		expect(sent(result.requests)).toEqual([
			{ role: 'system', content: 'You help Ada on Telegram. Use the tools for every hash.' },
			{ role: 'user', content: 'Hash "pinned" please' },
		]);
		expect(result.requests[0].body.tools[0].function.description).toBe(
			'Computes the SHA-256 hash (hex) of a text for chat 4401',
		);
		expect(result.stderr).toBe(
			'Note: no --prompt: sent the node\'s own prompt of "AI Agent": Hash "pinned" please\n',
		);
	});

	it("with --prompt and only the export's pinData, the question asked is sent; pinData still fills the system message", async () => {
		const result = await run(['run', fixture('telegram-agent.json'), '--prompt', 'What is 2+2*3?']);
		expect(result.code).toBe(0);
		expect(sent(result.requests)).toEqual([
			{ role: 'system', content: 'You help Ada on Telegram. Use the tools for every hash.' },
			{ role: 'user', content: 'What is 2+2*3?' },
		]);
	});

	it("--pin gives the output of a node that did not run, over the export's pinData; pinning a node the prompt reads sends the node's prompt", async () => {
		const message = { text: 'Hash "from pin"', from: { first_name: 'Bo' }, chat: { id: 7 } };
		const result = await run([
			'run',
			telegramWithoutPinData(),
			'--prompt',
			'What is 2+2*3?',
			'--pin',
			`Telegram Trigger=${JSON.stringify({ message })}`,
		]);
		expect(result.code).toBe(0);
		expect(sent(result.requests)).toEqual([
			{ role: 'system', content: 'You help Bo on Telegram. Use the tools for every hash.' },
			{ role: 'user', content: 'Hash "from pin"' },
		]);
		expect(result.requests[0].body.tools[0].function.description).toBe(
			'Computes the SHA-256 hash (hex) of a text for chat 7',
		);
		expect(result.stderr).toContain('over --pin (it does not read --prompt)');
	});

	it("a node without output is a clear error naming agent, parameter path, node and the flag (exit 2), never n8n's 'Referenced node doesn't exist'", async () => {
		const result = await run(['run', telegramWithoutPinData(), '--prompt', 'What is 2+2*3?']);
		expect(result.code).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toBe(
			'toolbridge run: Agent "AI Agent": the expression at AI Agent › options.systemMessage reads the output of node "Telegram Trigger", which does not run here (only the agent and its sub-nodes do) and has no pinned output. Give that output with --pin \'Telegram Trigger={"field":"value"}\' (the JSON of its item, or an array of items; "pin" in the library and the servers), or pin the node\'s data in n8n before exporting.\n',
		);
		expect(result.requests).toHaveLength(0);
	});

	it('bad --input and --pin are usage errors (exit 2)', async () => {
		const file = fixture('webhook-agent-no-tools.json');
		for (const [flags, message] of [
			[['--input', '[1]'], '--input must be a JSON object'],
			[['--input', '{nope'], '--input is not valid JSON'],
			[['--pin', 'no-equals'], '--pin takes NODE=JSON'],
			[
				['--pin', 'Webhook=3'],
				'--pin Webhook must be a JSON object (one item) or an array of them',
			],
		] as const) {
			const result = await run(['run', file, '--prompt', 'x', ...flags]);
			expect(result.code).toBe(2);
			expect(result.stderr).toContain(message);
		}
	});
});

describe('runWorkflowAgent: input and pins', () => {
	it('the same rules in the library: userMessage says which text was sent; an unresolved reference is an UnresolvedNodeReferenceError', async () => {
		server = await startFakeChatServer({ respond: () => textReply('Seven.') });
		const options = { baseUrl: server.baseUrl, apiKey, env: {} };
		const asked = await runWorkflowAgent(fixture('webhook-agent-no-tools.json'), {
			...options,
			prompt: 'What is 2+2*3?',
		});
		expect(asked).toMatchObject({
			prompt: 'What is 2+2*3?',
			userMessage: { source: 'user-text', reason: 'user-text', template: '={{ $json.body.text }}' },
			tools: [],
		});
		const pinned = await runWorkflowAgent(telegramWithoutPinData(), {
			...options,
			prompt: 'What is 2+2*3?',
			pins: { 'Telegram Trigger': [{ json: { message: { text: 'pinned', from: {}, chat: {} } } }] },
		});
		expect(pinned).toMatchObject({
			prompt: 'pinned',
			userMessage: { source: 'node-prompt', reason: 'pin' },
		});
		// A pin without what the prompt reads (given for the system message, a session key):
		// the node's prompt resolves to nothing, so the question asked is sent after all.
		const pinnedElsewhere = await runWorkflowAgent(telegramWithoutPinData(), {
			...options,
			prompt: 'What is 2+2*3?',
			pins: { 'Telegram Trigger': [{ json: { message: { from: {}, chat: { id: 7 } } } }] },
		});
		expect(pinnedElsewhere).toMatchObject({
			prompt: 'What is 2+2*3?',
			userMessage: { source: 'user-text', reason: 'user-text' },
		});
		const error = await runWorkflowAgent(telegramWithoutPinData(), {
			...options,
			prompt: 'What is 2+2*3?',
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(UnresolvedNodeReferenceError);
		expect(error).toMatchObject({
			code: 'UNRESOLVED_NODE_REFERENCE',
			agentName: 'AI Agent',
			parameterPath: 'AI Agent › options.systemMessage',
			nodeName: 'Telegram Trigger',
			nodeExists: true,
		});
		await expect(
			runWorkflowAgent(fixture('webhook-agent-no-tools.json'), {
				...options,
				prompt: 'x',
				input: [] as never,
			}),
		).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
	});
});
