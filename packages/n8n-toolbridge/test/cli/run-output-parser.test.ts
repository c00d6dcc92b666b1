/**
 * `toolbridge run` on n8n's AI Agent with a Structured Output Parser (the parser node run by n8n's
 * own code): `--json` prints the parsed object as `output`, plain output is its JSON text, and an
 * answer that never validates is OUTPUT_PARSER_FAILED naming agent and parser. Real CLI in
 * process, a loopback fake model.
 */
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands';
import { runCli } from '../../src/cli/run-cli';
import {
	startFakeChatServer,
	textReply,
	type FakeChatServer,
} from '../../../../test/support/fake-chat-server';

const workflow = join(
	resolve(__dirname, '../../../..'),
	'fixtures/workflows/structured-output-agent.json',
);

let server: FakeChatServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function run(answer: string, extra: string[] = []) {
	server = await startFakeChatServer({ respond: () => textReply(answer) });
	let stdout = '';
	let stderr = '';
	const code = await runCli(
		[
			'run',
			workflow,
			'--prompt',
			'Tell me about Lyon.',
			'--base-url',
			server.baseUrl,
			'--api-key',
			'sk-run-output-parser-1234',
			...extra,
		],
		commands,
		{ stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: {} },
	);
	return { code, stdout, stderr, requests: server.requests };
}

const lyon = { city: 'Lyon', country: 'France', population: 520000 };

describe('toolbridge run: an agent with an output parser', () => {
	it('--json prints the parsed object as output', async () => {
		const result = await run(JSON.stringify({ output: lyon }), ['--json']);
		expect(result.code).toBe(0);
		const printed = JSON.parse(result.stdout);
		expect(printed.output).toEqual(lyon);
		expect(printed.iterations).toBe(1);
		// The parser's schema ({ output: … }, every field required) is in the system message.
		expect(result.requests[0].body.messages[0].content).toContain('"required":["output"]');
	});

	it('without --json prints the object as JSON text', async () => {
		const result = await run(`\`\`\`json\n${JSON.stringify({ output: lyon })}\n\`\`\``);
		expect(result.code).toBe(0);
		expect(JSON.parse(result.stdout)).toEqual(lyon);
	});

	it('an answer that never validates: OUTPUT_PARSER_FAILED naming the agent and the parser', async () => {
		const result = await run('Lyon is a city in France.');
		expect(result.code).not.toBe(0);
		expect(result.stdout).toBe('');
		expect(result.stderr).toContain(
			'The answer of agent "City agent" did not pass its output parser "Structured Output Parser"',
		);
		expect(result.stderr).not.toContain('    at ');
	});
});
