import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands';
import { runCli } from '../../src/cli/run-cli';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeReply,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';

const root = resolve(__dirname, '../../../..');
const fixture = join(root, 'fixtures/workflows/validator-record.json');
const apiKey = 'sk-or-test-validator-77';

async function runInProcess(args: string[], env: NodeJS.ProcessEnv = {}) {
	let stdout = '';
	let stderr = '';
	const code = await runCli(args, commands, {
		stdout: (text) => (stdout += text),
		stderr: (text) => (stderr += text),
		env,
	});
	return { code, stdout, stderr };
}

/** The validator fixture with some of the orchestrator's parameters changed, as a temp file. */
function variant(parameters: Record<string, unknown>): string {
	const workflow = JSON.parse(readFileSync(fixture, 'utf8'));
	const agent = workflow.nodes.find((node: { name: string }) => node.name === 'Record Validator');
	Object.assign(agent.parameters, parameters);
	const file = join(mkdtempSync(join(tmpdir(), 'toolbridge-validator-')), 'validator.json');
	writeFileSync(file, JSON.stringify(workflow));
	return file;
}

let server: FakeChatServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function start(replies: FakeReply[]): Promise<FakeChatServer> {
	server = await startFakeChatServer({
		respond: ({ index }: FakeRequest) => replies[Math.min(index, replies.length - 1)],
	});
	return server;
}

const call = (args: object, id = 'call_record') =>
	toolCallReply([{ id, name: 'Make_record', arguments: args }]);
const flags = () => [
	'--prompt',
	'Ada is 36 years old',
	'--base-url',
	server!.baseUrl,
	'--api-key',
	apiKey,
];

describe('toolbridge run, validator mode (real Edit Fields node)', () => {
	it('first try: forced tool call, the real node runs once, --json prints { tool, arguments, result, attempts }', async () => {
		await start([call({ name: 'Ada', age: 36, vip: true })]);
		const { code, stdout, stderr } = await runInProcess(['run', fixture, ...flags(), '--json']);
		expect(code).toBe(0);
		expect(JSON.parse(stdout)).toEqual({
			tool: 'Make_record',
			arguments: { name: 'Ada', age: 36, vip: true },
			result: [{ name: 'Ada', age: 36, vip: true }],
			attempts: 1,
		});
		expect(stderr).toMatch(/^step 1 \(model call 1\): Make_record /);
		expect(server!.requests).toHaveLength(1);
		const [request] = server!.requests;
		// "Tool" names the node; the request offers and forces only its tool.
		expect(request.body.tool_choice).toEqual({
			type: 'function',
			function: { name: 'Make_record' },
		});
		expect(
			request.body.tools.map((tool: { function: { name: string } }) => tool.function.name),
		).toEqual(['Make_record']);
		expect(request.body.messages).toEqual([
			{ role: 'system', content: "Fill in the record from the user's message." },
			{ role: 'user', content: 'Ada is 36 years old' },
		]);
		expect(request.headers.authorization).toBe(`Bearer ${apiKey}`);
	});

	it('a schema error goes back to the model; the second request carries its exact text; human output', async () => {
		await start([
			call({ name: 'Ada', age: 'old' }, 'call_bad'),
			call({ name: 'Ada', age: 36 }, 'call_good'),
		]);
		const { code, stdout } = await runInProcess(['run', fixture, ...flags()]);
		expect(code).toBe(0);
		expect(stdout).toBe(
			`Tool: Make_record\nArguments: {"name":"Ada","age":36}\nResult: ${JSON.stringify([{ name: 'Ada', age: 36, vip: false }])}\nAttempts: 2\n`,
		);
		expect(server!.requests).toHaveLength(2);
		const feedback = (
			server!.requests[1].body.messages as Array<{
				role: string;
				content: string;
				tool_call_id?: string;
			}>
		).find((message) => message.role === 'tool');
		expect(feedback).toMatchObject({ tool_call_id: 'call_bad' });
		expect(feedback!.content).toContain('"age": expected a number, received the string "old"');
	});

	it('text instead of a call costs an attempt; exhaustion exits 1 listing every attempt', async () => {
		await start([textReply('Ada, 36.'), call({ name: 42 }), textReply('I cannot.')]);
		const { code, stdout, stderr } = await runInProcess(['run', fixture, ...flags(), '--json']);
		expect(code).toBe(1);
		expect(stdout).toBe('');
		expect(server!.requests).toHaveLength(3);
		expect(stderr).toMatch(
			/Attempt 1[^\n]*\n?[\s\S]*Attempt 2[\s\S]*"name": expected a string[\s\S]*Attempt 3/,
		);
		expect(stderr).not.toContain(apiKey);
	});

	it('Validate Only: the tool does not run and there is no result; Return Intermediate Steps adds usage and the attempt log', async () => {
		await start([call({ name: 'Ada', age: 36 })]);
		const file = variant({ validateOnly: true, options: { returnIntermediateSteps: true } });
		const { code, stdout, stderr } = await runInProcess(['run', file, ...flags(), '--json']);
		expect(stderr).toBe('');
		expect(code).toBe(0);
		const printed = JSON.parse(stdout);
		expect(printed).toMatchObject({
			tool: 'Make_record',
			arguments: { name: 'Ada', age: 36 },
			attempts: 1,
			usage: { promptTokens: 12 },
			attemptLog: [{ attempt: 1, tool: 'Make_record', errors: [] }],
		});
		expect(printed).not.toHaveProperty('result');
	});

	it('a Tool that is not connected is a settings problem (exit 2) naming the connected tools', async () => {
		await start([call({})]);
		const { code, stderr } = await runInProcess([
			'run',
			variant({ validatorTool: 'Nope' }),
			...flags(),
		]);
		expect(code).toBe(2);
		expect(stderr).toContain(
			"Tool 'Nope' is not connected. Connected tools: Make_record, Hash_text.",
		);
		expect(server!.requests).toHaveLength(0);
	});
});
