/**
 * The redaction boundary at the CLI's outputs: each echo location (test/support/
 * redaction-scenarios.ts: the model server's HTTP error body, mid-stream error, broken chunk;
 * the HTTP Request tool's error and output, echoing its credential) × each channel —
 * `toolbridge run` stdout and stderr in every mode (plain, --json, --debug, both),
 * `toolbridge call` (plain, --json), an MCP client's tool results (`toolbridge mcp`), and an
 * OpenAI client's answers and errors (`toolbridge serve`, with the server's own log).
 * Each cell checks that the echo reached the channel (`[REDACTED]`) and no part of a secret did.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	type FakeChatServer,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';
import {
	asText,
	locations,
	modelFor,
	modelSide,
	redactionCredentials,
	redactionWorkflow,
	secretFragments,
	startEchoApi,
	toolUrl,
	withModel,
	type Location,
} from '../../../../test/support/redaction-scenarios';
import { commands } from '../../src/cli/commands';
import { runCli } from '../../src/cli/run-cli';
import {
	startToolbridgeServer,
	toolbridgeCommand,
	type ToolbridgeServer,
} from '../support/toolbridge-process';

let api: Awaited<ReturnType<typeof startEchoApi>>;
let directory: string;
beforeAll(async () => {
	api = await startEchoApi();
	directory = mkdtempSync(join(tmpdir(), 'toolbridge-redaction-'));
	writeFileSync(join(directory, 'workflow.json'), JSON.stringify(redactionWorkflow()));
});
afterAll(() => api.close());

/** Writes the credential records for a model at `baseUrl`; returns the file. */
function credentialsFile(baseUrl: string): string {
	const file = join(directory, `credentials-${baseUrl.replace(/\W/g, '')}.json`);
	writeFileSync(file, JSON.stringify(redactionCredentials(baseUrl)));
	return file;
}

async function cli(args: string[]): Promise<{ stdout: string; stderr: string }> {
	let stdout = '';
	let stderr = '';
	await runCli(args, commands, {
		stdout: (chunk) => (stdout += chunk),
		stderr: (chunk) => (stderr += chunk),
		env: {},
	});
	return { stdout, stderr };
}

const modes: Array<[string, string[]]> = [
	['plain', []],
	['--json', ['--json']],
	['--debug', ['--debug']],
	['--json --debug', ['--json', '--debug']],
];

/** Each command: how it runs a location, and which channels carry the echo of which location. */
interface CommandCase {
	run(location: Location): Promise<Record<string, string>>;
	channels(location: Location): string[];
}

let mcp: Client | undefined;
let model: FakeChatServer | undefined;
let serve: ToolbridgeServer | undefined;

const commandCases: Record<string, CommandCase> = {
	'toolbridge run': {
		channels: (location) =>
			modes.flatMap(([mode]) =>
				modelSide(location) ? [`stderr ${mode}`] : [`stdout ${mode}`, `stderr ${mode}`],
			),
		run: (location) =>
			withModel(location, api.base, async (baseUrl) => {
				const capture: Record<string, string> = {};
				for (const [mode, flags] of modes) {
					const { stdout, stderr } = await cli([
						'run',
						join(directory, 'workflow.json'),
						'--prompt',
						'go',
						'--credentials',
						credentialsFile(baseUrl),
						...flags,
					]);
					capture[`stdout ${mode}`] = stdout;
					capture[`stderr ${mode}`] = stderr;
				}
				return capture;
			}),
	},
	'toolbridge call': {
		channels: (location) =>
			modelSide(location)
				? []
				: [location === 'tool error' ? 'stderr plain' : 'stdout plain', 'stdout --json'],
		run: async (location) => {
			const capture: Record<string, string> = {};
			for (const [mode, flags] of modes.slice(0, 2)) {
				const args = JSON.stringify({ url: toolUrl(api.base, location) });
				const { stdout, stderr } = await cli([
					'call',
					join(directory, 'workflow.json'),
					'Get',
					'--args',
					args,
					'--credentials',
					credentialsFile('http://127.0.0.1:9/v1'),
					...flags,
				]);
				capture[`stdout ${mode}`] = stdout;
				capture[`stderr ${mode}`] = stderr;
			}
			return capture;
		},
	},
	'toolbridge mcp (stdio, MCP client)': {
		channels: (location) => (modelSide(location) ? [] : ['tools/call result']),
		run: async (location) => {
			if (!mcp) {
				const spec = toolbridgeCommand([
					'mcp',
					join(directory, 'workflow.json'),
					'--allow-private-network',
				]);
				const env = {
					...spec.env,
					TOOLBRIDGE_CREDENTIALS: JSON.stringify(redactionCredentials('http://127.0.0.1:9/v1')),
				};
				mcp = new Client({ name: 'toolbridge-redaction-test', version: '1.0.0' });
				await mcp.connect(
					new StdioClientTransport({
						command: spec.command,
						args: spec.args,
						cwd: spec.cwd,
						env,
						stderr: 'pipe',
					}),
				);
			}
			const result = await mcp.callTool({
				name: 'Get',
				arguments: { url: toolUrl(api.base, location) },
			});
			return { 'tools/call result': asText(result) };
		},
	},
	'toolbridge serve (OpenAI client)': {
		channels: (location) =>
			modelSide(location)
				? ['error response', 'server log (stderr)']
				: ['completion', 'streamed completion'],
		run: async (location) => {
			if (!serve) {
				// One model for all locations: the user's message names the location.
				model = await startFakeChatServer({
					respond: (request: FakeRequest) => {
						const messages = request.body.messages as Array<{ role: string; content: string }>;
						return modelFor(
							messages.find((message) => message.role === 'user')?.content as Location,
							api.base,
						)(request);
					},
				});
				serve = await startToolbridgeServer(
					['serve', join(directory, 'workflow.json'), '--port', '0', '--allow-private-network'],
					{
						TOOLBRIDGE_CREDENTIALS: JSON.stringify(redactionCredentials(model.baseUrl)),
					},
				);
			}
			const server = serve;
			const ask = async (stream: boolean) => {
				const response = await fetch(`${server.url}/v1/chat/completions`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({
						model: 'Agent',
						messages: [{ role: 'user', content: location }],
						stream,
					}),
				});
				const body = await response.text();
				if (!stream) return `${response.status} ${body}`;
				// The streamed text comes in pieces: join the deltas (and keep any error event whole).
				const events = body
					.split('\n')
					.filter((line) => line.startsWith('data: {'))
					.map(
						(line) =>
							JSON.parse(line.slice(6)) as { choices?: Array<{ delta?: { content?: string } }> },
					);
				return `${response.status} ${events.map((event) => event.choices?.[0]?.delta?.content ?? (event.choices ? '' : JSON.stringify(event))).join('')}`;
			};
			const completion = await ask(false);
			const streamed = modelSide(location) ? '' : await ask(true);
			return {
				'error response': completion,
				completion,
				'streamed completion': streamed,
				'server log (stderr)': server.stderr(),
			};
		},
	},
};

afterAll(async () => {
	await mcp?.close();
	await serve?.stop();
	await model?.close();
});

const captures = new Map<string, Promise<Record<string, string>>>();
function captureOf(commandName: string, location: Location): Promise<Record<string, string>> {
	const key = `${commandName}|${location}`;
	if (!captures.has(key)) captures.set(key, commandCases[commandName].run(location));
	return captures.get(key) as Promise<Record<string, string>>;
}

const cells = Object.entries(commandCases).flatMap(([commandName, commandCase]) =>
	locations.flatMap((location) =>
		commandCase
			.channels(location)
			.map((channel): [string, Location, string] => [commandName, location, channel]),
	),
);

describe('the CLI never prints a secret: echo location × channel', () => {
	it.each(cells)(
		'%s · %s → %s',
		async (commandName, location, channel) => {
			const output = (await captureOf(commandName, location))[channel];
			expect(output, `the echo reached "${channel}"`).toContain('[REDACTED]');
			expect(secretFragments(output), `no part of a secret in "${channel}"`).toEqual([]);
		},
		120_000,
	);
});
