#!/usr/bin/env node
/**
 * `npm run test:clients`: MCP clients no one here wrote, against the built `toolbridge mcp`
 * with fixtures/workflows/crypto-agent.json (real n8n Crypto nodes), over stdio and Streamable
 * HTTP: each lists the tools and calls Hash_text, and the answer must be the real SHA-256.
 *
 *   MCP Inspector CLI 2.12 (--protocol-era modern and legacy; --strict schema portability check)
 *   AI SDK MCP client (@ai-sdk/mcp 2.0.99: opens with server/discover)
 *   official SDK v2 client pinned to 2026-07-28, and in 2025 mode
 *   official SDK v1 client (what @langchain/mcp-adapters uses)
 *
 * One PASS/FAIL line per client and transport with the time to the first answer; exit 1 on
 * any FAIL.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../../../..');
const bin = join(repo, 'packages/n8n-toolbridge/bin/toolbridge.js');
const workflow = join(repo, 'fixtures/workflows/crypto-agent.json');
const inspector = join(
	repo,
	'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
const home = mkdtempSync(join(tmpdir(), 'toolbridge-clients-'));
const env = { PATH: process.env.PATH ?? '', HOME: home };
const server = { command: process.execPath, args: [bin, 'mcp', workflow] };
const expected = createHash('sha256').update('hello clients').digest('hex');
const TOOLS = 'Hash_text,MD5_text';

/** @param {unknown} result the tools/call result */
function hashOf(result) {
	const value = /** @type {any} */ (result);
	return (
		value?.structuredContent?.result?.[0]?.hash ??
		JSON.parse(value?.content?.[0]?.text ?? '[]')[0]?.hash
	);
}

/**
 * @typedef {{ opened: number, tools: string, hash: string, note?: string }} Outcome
 * @type {Array<[string, 'stdio' | 'http', (url: string) => Promise<Outcome>]>}
 */
const cases = [];

for (const era of /** @type {const} */ (['modern', 'legacy'])) {
	const inspect = async (/** @type {string[]} */ target, /** @type {string[]} */ extra) => {
		const { stdout } = await run(
			process.execPath,
			[inspector, '--cli', ...target, '--protocol-era', era, '--format', 'json', ...extra],
			{ env, cwd: repo, timeout: 120_000 },
		);
		return JSON.parse(stdout).result;
	};
	for (const transport of /** @type {const} */ (['stdio', 'http'])) {
		cases.push([
			`MCP Inspector CLI 2.12 (--protocol-era ${era})`,
			transport,
			async (url) => {
				const target = transport === 'http' ? [url] : [process.execPath, bin, 'mcp', workflow];
				const started = performance.now();
				const list = await inspect(target, ['--method', 'tools/list', '--strict']);
				const opened = performance.now() - started;
				const call = await inspect(target, [
					'--method',
					'tools/call',
					'--tool-name',
					'Hash_text',
					'--tool-arg',
					'text=hello clients',
				]);
				return {
					opened,
					tools: list.tools.map((/** @type {any} */ tool) => tool.name).join(','),
					hash: hashOf(call),
					note: '--strict schema check passed',
				};
			},
		]);
	}
}

for (const transport of /** @type {const} */ (['stdio', 'http'])) {
	cases.push([
		'AI SDK @ai-sdk/mcp 2.0.99',
		transport,
		async (url) => {
			const started = performance.now();
			const client = await createMCPClient({
				transport:
					transport === 'http'
						? { type: 'http', url }
						: new Experimental_StdioMCPTransport({ ...server, env, cwd: repo, stderr: 'ignore' }),
			});
			const opened = performance.now() - started;
			try {
				const tools = await client.tools();
				const result = await tools.Hash_text.execute(
					{ text: 'hello clients' },
					{ toolCallId: 'c1', messages: [] },
				);
				return { opened, tools: Object.keys(tools).join(','), hash: hashOf(result) };
			} finally {
				await client.close();
			}
		},
	]);
	for (const [label, mode] of /** @type {const} */ ([
		['SDK v2 client, 2026-07-28', { pin: '2026-07-28' }],
		['SDK v2 client, 2025', 'legacy'],
	])) {
		cases.push([
			label,
			transport,
			async (url) => {
				const client = new Client(
					{ name: 'clients-suite', version: '1' },
					{ versionNegotiation: { mode } },
				);
				return listAndCall(
					client,
					transport === 'http'
						? new StreamableHTTPClientTransport(new URL(url))
						: new StdioClientTransport({ ...server, env, cwd: repo, stderr: 'ignore' }),
					() => `protocol ${client.getNegotiatedProtocolVersion()}`,
				);
			},
		]);
	}
	cases.push([
		'SDK v1 client 1.32',
		transport,
		async (url) => {
			const client = new V1Client({ name: 'clients-suite', version: '1' });
			return listAndCall(
				client,
				transport === 'http'
					? new V1HttpTransport(new URL(url))
					: new V1StdioTransport({ ...server, env, cwd: repo, stderr: 'ignore' }),
			);
		},
	]);
}

/**
 * An official SDK client (v1 or v2): connect (timed), list the tools, hash a text, close.
 * @param {any} client @param {any} transport
 * @param {() => string} [note] read while connected (e.g. the negotiated revision)
 * @returns {Promise<{ opened: number, tools: string, hash: string | undefined, note?: string }>}
 */
async function listAndCall(client, transport, note) {
	const started = performance.now();
	await client.connect(transport);
	const opened = performance.now() - started;
	try {
		const { tools } = await client.listTools();
		const result = await client.callTool({
			name: 'Hash_text',
			arguments: { text: 'hello clients' },
		});
		return {
			opened,
			tools: tools.map((/** @type {{ name: string }} */ tool) => tool.name).join(','),
			hash: hashOf(result),
			...(note ? { note: note() } : {}),
		};
	} finally {
		await client.close();
	}
}

async function startHttpServer() {
	const child = spawn(process.execPath, [bin, 'mcp', workflow, '--http', '127.0.0.1:0'], {
		cwd: repo,
		env,
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	let stderr = '';
	const port = await new Promise((resolvePort, reject) => {
		child.stderr.on('data', (data) => {
			stderr += data;
			const match = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
			if (match) resolvePort(Number(match[1]));
		});
		child.once('exit', (code) => reject(new Error(`server exited ${code}:\n${stderr}`)));
	});
	return { child, url: `http://127.0.0.1:${port}/mcp` };
}

async function main() {
	const http = await startHttpServer();
	let failed = 0;
	try {
		for (const [label, transport, check] of cases) {
			try {
				const outcome = await check(http.url);
				const ok = outcome.tools === TOOLS && outcome.hash === expected;
				if (!ok) failed++;
				console.log(
					`${ok ? 'PASS' : 'FAIL'} ${label.padEnd(44)} ${transport.padEnd(5)} opened ${outcome.opened.toFixed(0).padStart(5)} ms; tools ${outcome.tools}; hash ${outcome.hash === expected ? 'ok' : outcome.hash}${outcome.note ? `; ${outcome.note}` : ''}`,
				);
			} catch (error) {
				failed++;
				const message = /** @type {any} */ (error).stderr || /** @type {Error} */ (error).message;
				console.log(
					`FAIL ${label.padEnd(44)} ${transport.padEnd(5)} ${String(message).split('\n').slice(0, 3).join(' | ')}`,
				);
			}
		}
	} finally {
		http.child.kill();
	}
	console.log(
		failed === 0 ? `PASS: ${cases.length} client runs` : `FAIL: ${failed} of ${cases.length}`,
	);
	process.exitCode = failed === 0 ? 0 : 1;
}

main().catch((error) => {
	console.error(`test:clients failed: ${error.stack ?? error}`);
	process.exitCode = 1;
});
