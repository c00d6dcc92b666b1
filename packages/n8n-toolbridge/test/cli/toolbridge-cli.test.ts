import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands';
import { runCli } from '../../src/cli/run-cli';

const root = resolve(__dirname, '../../../..');
const fixturePackage = ['--package', 'fixtures/packages/n8n-nodes-toolbridge-fixture'];
const workflow = (name: string) => `fixtures/workflows/${name}`;

/** Spawns the real CLI entry (through tsx) with a throw-away HOME. */
function spawnCli(args: string[], env: Record<string, string> = {}) {
	const home = mkdtempSync(join(tmpdir(), 'toolbridge-home-'));
	const result = spawnSync(
		process.execPath,
		['--import', 'tsx', 'packages/n8n-toolbridge/src/cli/main.ts', ...args],
		{
			cwd: root,
			encoding: 'utf8',
			env: {
				PATH: process.env.PATH ?? '',
				HOME: home,
				TSX_TSCONFIG_PATH: 'packages/n8n-toolbridge/tsconfig.json',
				...env,
			},
			timeout: 60_000,
		},
	);
	return { ...result, home };
}

/** Runs the command registry in-process, capturing output. */
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

describe('toolbridge (spawned)', () => {
	it('tools prints the table, exit 0, writes nothing to ~/.n8n', () => {
		const result = spawnCli(['tools', workflow('text-tools.json'), ...fixturePackage]);
		expect(result.stderr).toBe('');
		expect(result.status).toBe(0);
		expect(result.stdout).toContain(
			'Agent "Agent" (n8n-nodes-toolbridge.agentOrchestrator): 5 tools',
		);
		expect(result.stdout).toMatch(
			/Hash_text {2}\(node "Hash text", n8n-nodes-base\.cryptoTool\)\n {2}Computes the SHA-256 hash \(hex\) of a text\n {2}text {2}string {3}required {2}The text to hash/,
		);
		expect(existsSync(join(result.home, '.n8n'))).toBe(false);
	});

	it('call runs the real node and prints what the model reads', () => {
		const result = spawnCli([
			'call',
			workflow('text-tools.json'),
			'Hash_text',
			'--args',
			'{"text":"from the cli"}',
			...fixturePackage,
		]);
		expect(result.status).toBe(0);
		expect(JSON.parse(result.stdout)).toEqual([
			{ sha256: createHash('sha256').update('from the cli').digest('hex') },
		]);
	});

	it('bad $fromAI: problems with path and position, exit 2', () => {
		const result = spawnCli(['tools', workflow('bad-from-ai.json'), '--json']);
		expect(result.status).toBe(2);
		const [agent] = JSON.parse(result.stdout).agents;
		expect(agent.tools.map((tool: { name: string }) => tool.name)).toEqual(['Hash_text']);
		expect(agent.problems).toContainEqual(
			expect.objectContaining({
				nodeName: 'Broken record',
				path: 'assignments.assignments[0].value',
			}),
		);
		expect(result.stderr).toContain(
			`Node "Broken record", assignments.assignments[0].value at position 33: Found type 'integer'`,
		);
	});
});

describe('toolbridge (in process)', () => {
	it('tools --json gives name, description and JSON Schema', async () => {
		const { code, stdout } = await runInProcess([
			'tools',
			workflow('two-agents.json'),
			'--agent',
			'Agent B',
			'--json',
			...fixturePackage,
		]);
		expect(code).toBe(0);
		expect(JSON.parse(stdout).agents).toHaveLength(1);
		expect(JSON.parse(stdout).agents[0].tools).toEqual([
			{
				name: 'Stats',
				node: 'Stats',
				nodeType: expect.any(String),
				description: 'Text statistics',
				parameters: {
					$schema: 'http://json-schema.org/draft-07/schema#',
					type: 'object',
					properties: { text: { type: 'string' } },
					required: ['text'],
					additionalProperties: false,
				},
			},
		]);
	});

	it('call --json with coerced args, and by node name', async () => {
		const { code, stdout } = await runInProcess([
			'call',
			workflow('text-tools.json'),
			'Make record',
			'--args',
			'{"name":"Ada","age":"36"}',
			'--json',
			...fixturePackage,
		]);
		expect(code).toBe(0);
		expect(JSON.parse(stdout)).toMatchObject({
			tool: 'Make_record',
			isError: false,
			data: [{ name: 'Ada', age: 36, vip: false }],
		});
	});

	it('an error observation exits 1 and goes to stderr', async () => {
		const { code, stdout, stderr } = await runInProcess([
			'call',
			workflow('text-tools.json'),
			'Make_record',
			'--args',
			'{"age":"old"}',
			...fixturePackage,
		]);
		expect(code).toBe(1);
		expect(stdout).toBe('');
		expect(stderr).toContain('"age": expected a number, received the string "old"');
	});

	it('missing credential: clear message naming the key, exit 1, credentials from a file', async () => {
		const missing = await runInProcess([
			'call',
			workflow('http-tools.json'),
			'Fetch_item',
			'--args',
			'{"url":"http://127.0.0.1:9/x"}',
		]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain(
			'needs credential "Inventory API key" (type httpHeaderAuth), which was not supplied',
		);
		const file = join(mkdtempSync(join(tmpdir(), 'toolbridge-cred-')), 'credentials.json');
		writeFileSync(file, '{ "Inventory API key": { "name": "X-Key", "value": "sk-secret-123" } }');
		// Port 9 (discard) refuses: the node error comes back, the secret does not.
		const refused = await runInProcess([
			'call',
			workflow('http-tools.json'),
			'Fetch_item',
			'--args',
			'{"url":"http://127.0.0.1:9/x"}',
			'--credentials',
			file,
		]);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toMatch(/^Error: node "Fetch item" failed: /);
		expect(refused.stderr + refused.stdout).not.toContain('sk-secret-123');
	});

	it.each([
		[
			['call', workflow('text-tools.json'), 'Nope', ...fixturePackage],
			/No tool "Nope". Available tools: Hash_text, Format_date, Make_record, Text_stats, Calendar_file\./,
		],
		[
			['call', workflow('text-tools.json'), 'Hash_text', '--args', '[1]'],
			/--args must be a JSON object/,
		],
		[
			['call', workflow('text-tools.json'), 'Hash_text', '--args', '{oops'],
			/--args is not valid JSON/,
		],
		[['tools'], /Expected exactly one workflow file/],
		[['tools', 'x.json', '--bogus'], /Unknown option '--bogus'/],
		[['frobnicate'], /Unknown command "frobnicate"/],
	])('usage problem %j exits 2 without a stack trace', async (args, message) => {
		const { code, stderr } = await runInProcess(args as string[]);
		expect(code).toBe(2);
		expect(stderr).toMatch(message);
		expect(stderr).not.toMatch(/\n\s+at /);
	});

	it('a missing file is a configuration error (exit 2, as README says); --debug adds the stack', async () => {
		const plain = await runInProcess(['tools', 'fixtures/workflows/nope.json']);
		expect(plain.code).toBe(2);
		expect(plain.stderr).toBe(
			'toolbridge tools: Cannot read workflow file fixtures/workflows/nope.json: ENOENT.\n',
		);
		const debug = await runInProcess(['tools', 'fixtures/workflows/nope.json', '--debug']);
		expect(debug.stderr).toMatch(/\n\s+at /);
	});

	it('help texts', async () => {
		const main = await runInProcess(['--help']);
		expect(main.code).toBe(0);
		expect(main.stdout).toContain('tools  list the tools the agents of a workflow would see');
		const call = await runInProcess(['call', '--help']);
		expect(call.stdout).toMatch(/^Usage: toolbridge call <workflow\.json> <tool> --args '<json>'/);
	});
});

describe('exit codes: 2 for what the user gave, never an error class name in the message', () => {
	const dir = mkdtempSync(join(tmpdir(), 'toolbridge-exit-'));
	const unknownType = join(dir, 'unknown-type.json');
	writeFileSync(
		unknownType,
		JSON.stringify({
			nodes: [
				{ name: 'A', type: 'n8n-nodes-base.noSuchNode', parameters: {} },
				{ name: 'Agent', type: 'n8n-nodes-toolbridge.agentOrchestrator', parameters: {} },
			],
			connections: { A: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] } },
		}),
	);
	const notJson = join(dir, 'not-json.json');
	writeFileSync(notJson, '{ nope');
	it.each([
		['a missing workflow file', ['tools', join(dir, 'missing.json')], /Cannot read workflow file/],
		['a workflow file that is not JSON', ['tools', notJson], /is not valid JSON/],
		[
			'an unknown node type',
			['tools', unknownType],
			/"A" \(n8n-nodes-base\.noSuchNode\): it is not in the installed package n8n-nodes-base/,
		],
		['an unknown flag', ['tools', unknownType, '--bogus'], /Unknown option '--bogus'/],
	])('%s exits 2', async (_what, args, message) => {
		const { code, stderr } = await runInProcess(args);
		expect(code).toBe(2);
		expect(stderr).toMatch(message);
		expect(stderr).not.toMatch(
			/\b(TypeError|Error|ToolbridgeError|WorkflowFileError|NodeTypeNotFoundError):/,
		);
	});
});
