#!/usr/bin/env node
// @ts-check
/**
 * A new user's install, as CI runs it after `npm ci && npm run build`:
 *
 *   npm pack --workspace n8n-toolbridge --include-workspace-root   (every tarball a user needs;
 *                                                    packages/real-clients is test-only)
 *   npm install --ignore-scripts ./*.tgz                 (into an empty folder)
 *   npx toolbridge tools … / npx toolbridge call … / npx toolbridge mcp (tools/list)
 *   require('n8n-toolbridge')
 *
 * plus the n8n package alone (no peers): importing it must fail with PeerDependencyError
 * naming n8n-toolbridge, and its manifest must carry no MCP SDK, zod, LangChain or n8n
 * library as a dependency and no bin. `--ignore-scripts` as a locked-down user would: a Kafka
 * client in n8n-nodes-base cannot fetch its native binary here.
 *
 * Options: --keep (keep the temp folder), --quiet (only the verdict).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..');
const keep = process.argv.includes('--keep');
const quiet = process.argv.includes('--quiet');
const work = mkdtempSync(join(tmpdir(), 'toolbridge-new-user-'));
const packs = join(work, 'packs');
const user = join(work, 'user');
const bare = join(work, 'n8n-package-alone');
const FORBIDDEN_IN_ROOT = [
	// n8n's own copy inside n8n (an optional peer): a second copy of a newer minor gets a no-op tracer.
	'@opentelemetry/api',
	'@modelcontextprotocol/sdk',
	'@modelcontextprotocol/server',
	'zod',
	'@langchain/core',
	'n8n-core',
	'n8n-workflow',
	'n8n-nodes-base',
	'@n8n/ai-node-sdk',
	'@n8n/workflow-sdk',
];

/** @param {string} line */
const say = (line) => {
	if (!quiet) process.stdout.write(`${line}\n`);
};

/**
 * Runs a command, echoing it and its output as a transcript.
 * @param {string} command @param {string[]} args @param {{ cwd: string, input?: string, expectStatus?: number }} options
 */
function run(command, args, options) {
	say(
		`\n$ ${[command, ...args].map(shellQuote).join(' ').replaceAll(work, '$WORK')}   # in ${options.cwd.replace(work, '$WORK')}`,
	);
	const result = spawnSync(command, args, {
		cwd: options.cwd,
		encoding: 'utf8',
		input: options.input,
		env: { ...process.env, npm_config_update_notifier: 'false' },
		maxBuffer: 64 * 1024 * 1024,
	});
	const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trimEnd();
	if (output)
		say(output.split('\n').slice(0, 40).join('\n') + (output.split('\n').length > 40 ? '\n…' : ''));
	const expected = options.expectStatus ?? 0;
	if (result.status !== expected)
		throw new Error(`${command} ${args.join(' ')} exited ${result.status} (expected ${expected})`);
	return result;
}

/** An argument as a shell would need it written (for the transcript only). @param {string} arg */
function shellQuote(arg) {
	if (!/[\s"'{}$()*;&|<>]/.test(arg)) return arg;
	return `'${arg.replaceAll("'", "'\\''")}'`;
}

/** @param {boolean} condition @param {string} message */
function check(condition, message) {
	if (!condition) throw new Error(`check failed: ${message}`);
	say(`ok: ${message}`);
}

/**
 * `toolbridge mcp` over stdio, spoken in raw JSON-RPC lines: initialize, then tools/list.
 * @returns {Promise<{ tools: Array<{ name: string, inputSchema: object }> }>}
 */
function mcpToolsList(cwd, workflow) {
	say(
		`\n$ npx toolbridge mcp ${workflow}   # stdin: initialize, notifications/initialized, tools/list`,
	);
	return new Promise((resolvePromise, reject) => {
		const child = spawn('npx', ['--no-install', 'toolbridge', 'mcp', workflow], { cwd });
		let buffer = '';
		let stderr = '';
		const timer = setTimeout(() => {
			child.kill();
			reject(new Error(`no tools/list answer within 60 s:\n${stderr}`));
		}, 60_000);
		child.stderr.on('data', (data) => (stderr += data));
		child.stdout.on('data', (data) => {
			buffer += data;
			for (const line of buffer.split('\n').slice(0, -1)) {
				const message = JSON.parse(line);
				if (message.id === 2) {
					clearTimeout(timer);
					child.stdin.end();
					say(stderr.trimEnd());
					say(`← ${JSON.stringify(message.result).slice(0, 300)}…`);
					resolvePromise(message.result);
				}
			}
			buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
		});
		const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
		send({
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: {
				protocolVersion: '2025-06-18',
				capabilities: {},
				clientInfo: { name: 'install-test', version: '1' },
			},
		});
		send({ jsonrpc: '2.0', method: 'notifications/initialized' });
		send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
	});
}

async function main() {
	for (const built of ['dist/src/index.js', 'packages/n8n-toolbridge/dist/cli/main.js']) {
		if (!existsSync(join(repo, built)))
			throw new Error(`${built} is missing: run "npm run build" first`);
	}
	mkdirSync(packs);
	mkdirSync(user);
	mkdirSync(bare);
	say(`Working in ${work} ($WORK)`);

	const packed = JSON.parse(
		run(
			'npm',
			[
				'pack',
				'--workspace',
				'n8n-toolbridge',
				'--include-workspace-root',
				'--json',
				`--pack-destination=${packs}`,
			],
			{ cwd: repo },
		).stdout,
	);
	const tarballs = packed.map((/** @type {{ filename: string }} */ entry) =>
		join(packs, entry.filename),
	);
	check(
		tarballs.length === 2,
		`two tarballs: ${packed.map((/** @type {{ filename: string }} */ entry) => entry.filename).join(', ')}`,
	);

	const manifests = Object.fromEntries(
		tarballs.map((tarball) => {
			const manifest = JSON.parse(
				run('tar', ['-xzOf', tarball, 'package/package.json'], { cwd: packs }).stdout,
			);
			return [manifest.name, manifest];
		}),
	);
	const root = manifests['n8n-nodes-toolbridge'];
	const standalone = manifests['n8n-toolbridge'];
	check(root && standalone, 'the n8n package and the standalone package');
	check(
		FORBIDDEN_IN_ROOT.every((name) => !(name in (root.dependencies ?? {}))),
		`the n8n package depends on none of ${FORBIDDEN_IN_ROOT.join(', ')}`,
	);
	check(
		root.bin === undefined && standalone.bin?.toolbridge !== undefined,
		'only n8n-toolbridge declares the toolbridge bin',
	);
	check(
		[
			'n8n-core',
			'n8n-workflow',
			'n8n-nodes-base',
			'@langchain/core',
			'zod',
			'@modelcontextprotocol/server',
			'@n8n/workflow-sdk',
			'n8n-nodes-toolbridge',
		].every((name) => name in standalone.dependencies),
		"n8n-toolbridge has n8n's libraries, the MCP SDK, the workflow SDK and the n8n package as dependencies",
	);

	run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', ...tarballs], {
		cwd: user,
	});
	const cryptoAgent = join(repo, 'fixtures/workflows/crypto-agent.json');
	const tools = run('npx', ['--no-install', 'toolbridge', 'tools', cryptoAgent], { cwd: user });
	check(
		tools.stdout.startsWith(
			'Agent "Agent Orchestrator" (n8n-nodes-toolbridge.agentOrchestrator): 2 tools',
		),
		"toolbridge tools lists the agent's 2 tools",
	);
	check(tools.stderr === '', 'toolbridge tools writes nothing to stderr');
	const call = run(
		'npx',
		['--no-install', 'toolbridge', 'call', cryptoAgent, 'Hash_text', '--args', '{"text":"hello"}'],
		{ cwd: user },
	);
	check(
		JSON.parse(call.stdout)[0].hash === createHash('sha256').update('hello').digest('hex'),
		'toolbridge call runs the real Crypto node',
	);
	const textTools = run(
		'npx',
		[
			'--no-install',
			'toolbridge',
			'call',
			join(repo, 'fixtures/workflows/text-tools.json'),
			'Text_stats',
			'--args',
			'{"text":"a b a","word":"a"}',
			'--package',
			join(repo, 'fixtures/packages/n8n-nodes-toolbridge-fixture'),
		],
		{ cwd: user },
	);
	check(
		textTools.stdout.includes('"occurrences":2'),
		'a community node package from --package runs too',
	);
	const bad = run(
		'npx',
		['--no-install', 'toolbridge', 'call', cryptoAgent, 'Hash_text', '--args', 'not json'],
		{ cwd: user, expectStatus: 2 },
	);
	check(!bad.stderr.includes('    at '), 'a usage error prints one message, no stack');
	const listed = await mcpToolsList(user, cryptoAgent);
	check(
		listed.tools.map((tool) => tool.name).join(',') === 'Hash_text,MD5_text',
		'toolbridge mcp answers tools/list',
	);
	const library = run(
		'node',
		[
			'-e',
			"const t = require('n8n-toolbridge'); console.log(['loadWorkflowTools', 'runWorkflowAgent', 'createMcpServer', 'serveOpenAI', 'privateNetworkGuard', 'buildWorkflow'].map((name) => name + ': ' + typeof t[name]).join(', '))",
		],
		{ cwd: user },
	);
	check(!library.stdout.includes('undefined'), 'require("n8n-toolbridge") gives the library');

	run(
		'npm',
		[
			'install',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			tarballs.find((tarball) => tarball.includes('n8n-nodes-toolbridge-')),
		],
		{ cwd: bare },
	);
	const alone = run(
		'node',
		[
			'-e',
			"try { require('n8n-nodes-toolbridge') } catch (error) { console.log(JSON.stringify({ name: error.name, code: error.code, message: error.message })) }",
		],
		{ cwd: bare },
	);
	const thrown = JSON.parse(alone.stdout);
	check(
		thrown.code === 'PEER_DEPENDENCY_MISSING' &&
			thrown.message.includes('install n8n-toolbridge instead'),
		'the n8n package alone: PeerDependencyError naming n8n-toolbridge, not MODULE_NOT_FOUND',
	);

	process.stdout.write('new-user install: all checks passed\n');
}

main()
	.catch((error) => {
		process.stderr.write(`new-user install FAILED: ${error.message}\n`);
		process.exitCode = 1;
	})
	.finally(() => {
		if (keep) process.stdout.write(`kept ${work}\n`);
		else rmSync(work, { recursive: true, force: true });
	});
