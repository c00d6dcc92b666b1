#!/usr/bin/env node
// @ts-check
/**
 * A new user's install, as CI runs it after `npm ci && npm run build`:
 *
 *   npm pack, in every published workspace               (every tarball a user needs; packed
 *                                                        once per content; packages/real-clients is test-only)
 *   npm install --ignore-scripts ./*.tgz                 (into an empty folder)
 *   npx toolbridge tools … / npx toolbridge call … / npx toolbridge mcp (tools/list)
 *   require('n8n-toolbridge')
 *   toolbridge tools <a workflow with n8n's Calculator>  → exit 2 naming the add-on command
 *   that command (npm install --prefix … @n8n/n8n-nodes-langchain@2.41.1), then tools/call work
 *   the README's npx recipe (-p n8n-toolbridge -p @n8n/n8n-nodes-langchain@2.41.1) in an empty folder
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
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkCallWorkflowTool } from './call-workflow-tool.mjs';
import { checkCodeAndHttpTools } from './langchain-tools.mjs';

import { packOnce } from '../e2e/lib/pack-package.mjs';

const repo = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..');
const keep = process.argv.includes('--keep');
const quiet = process.argv.includes('--quiet');
const work = mkdtempSync(join(tmpdir(), 'toolbridge-new-user-'));
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
 * An MCP session over stdio, spoken in raw JSON-RPC lines: initialize, then `requests` (each
 * answered before the next is sent). Resolves with the results, in order.
 * @param {{ command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv, timeoutMs?: number }} server
 * @param {Array<{ method: string, params: object }>} requests
 * @returns {Promise<any[]>}
 */
function mcpSession(server, requests) {
	say(
		`\n$ ${[server.command, ...server.args].map(shellQuote).join(' ').replaceAll(work, '$WORK')}   # stdin: initialize, ${requests.map((request) => request.method).join(', ')}`,
	);
	return new Promise((resolvePromise, reject) => {
		const child = spawn(server.command, server.args, {
			cwd: server.cwd,
			env: { ...process.env, npm_config_update_notifier: 'false', ...server.env },
		});
		const results = [];
		let buffer = '';
		let stderr = '';
		const timeoutMs = server.timeoutMs ?? 60_000;
		const timer = setTimeout(() => {
			child.kill();
			reject(new Error(`no MCP answer within ${timeoutMs / 1000} s:\n${stderr.slice(-3000)}`));
		}, timeoutMs);
		const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
		child.stderr.on('data', (data) => (stderr += data));
		child.on('exit', (code) => {
			if (results.length < requests.length) {
				clearTimeout(timer);
				reject(new Error(`the MCP server exited (${code}) early:\n${stderr.slice(-3000)}`));
			}
		});
		child.stdout.on('data', (data) => {
			buffer += data;
			for (const line of buffer.split('\n').slice(0, -1)) {
				const message = JSON.parse(line);
				if (message.id === 1) {
					send({ jsonrpc: '2.0', method: 'notifications/initialized' });
					send({ jsonrpc: '2.0', id: 2, ...requests[0] });
					continue;
				}
				if (typeof message.id !== 'number') continue;
				results.push(message.result ?? { error: message.error });
				say(`← ${JSON.stringify(message.result ?? message.error).slice(0, 300)}…`);
				if (results.length < requests.length) {
					send({ jsonrpc: '2.0', id: results.length + 2, ...requests[results.length] });
					continue;
				}
				clearTimeout(timer);
				child.stdin.end();
				say(stderr.trimEnd().split('\n').slice(-5).join('\n'));
				resolvePromise(results);
			}
			buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
		});
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
	});
}

/** `toolbridge mcp <workflow>` of the user's install: tools/list. @param {string} cwd @param {string} workflow */
async function mcpToolsList(cwd, workflow) {
	const [listed] = await mcpSession(
		{ command: 'npx', args: ['--no-install', 'toolbridge', 'mcp', workflow], cwd },
		[{ method: 'tools/list', params: {} }],
	);
	return listed;
}

/** Apparent size of a folder in bytes (`du -sb`). @param {string} folder */
function folderBytes(folder) {
	return Number(spawnSync('du', ['-sb', folder], { encoding: 'utf8' }).stdout.split('\t')[0]);
}

/** Installed packages under a node_modules folder, nested ones included. @param {string} nodeModules */
function packageCount(nodeModules) {
	const { stdout } = spawnSync('find', [nodeModules, '-name', 'package.json'], {
		encoding: 'utf8',
		maxBuffer: 256 * 1024 * 1024,
	});
	return stdout
		.split('\n')
		.filter((line) => /\/node_modules\/(@[^/]+\/)?[^/@]+\/package\.json$/.test(line)).length;
}

/** @param {number} bytes */
const gigabytes = (bytes) => `${(bytes / 1e9).toFixed(2)} GB`;

async function main() {
	for (const built of ['dist/src/index.js', 'packages/n8n-toolbridge/dist/cli/main.js']) {
		if (!existsSync(join(repo, built)))
			throw new Error(`${built} is missing: run "npm run build" first`);
	}
	mkdirSync(user);
	mkdirSync(bare);
	say(`Working in ${work} ($WORK)`);

	// Every published workspace, packed once per content: the e2e suites install the same n8n tarball.
	// packages/real-clients is private: test-only clients, never published.
	const workspaces = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).workspaces.filter(
		(/** @type {string} */ workspace) =>
			!JSON.parse(readFileSync(join(repo, workspace, 'package.json'), 'utf8')).private,
	);
	const packed = [];
	for (const workspace of workspaces) {
		say(`\n$ npm pack --ignore-scripts   # in ${workspace} (reused when its files are unchanged)`);
		const tarball = await packOnce({ packageDir: join(repo, workspace) });
		say(`${tarball.reused ? 'reused' : 'packed'} ${tarball.tarball} (${tarball.entryCount} files)`);
		packed.push(tarball);
	}
	const tarballs = packed.map((entry) => entry.tarball);
	check(tarballs.length === 2, `two tarballs: ${packed.map((entry) => entry.filename).join(', ')}`);

	const manifests = Object.fromEntries(
		tarballs.map((tarball) => {
			const manifest = JSON.parse(
				run('tar', ['-xzOf', tarball, 'package/package.json'], { cwd: work }).stdout,
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

	let started = performance.now();
	run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', ...tarballs], {
		cwd: user,
	});
	const base = {
		seconds: (performance.now() - started) / 1000,
		bytes: folderBytes(join(user, 'node_modules')),
		packages: packageCount(join(user, 'node_modules')),
	};
	say(
		`measured: n8n-toolbridge install ${base.seconds.toFixed(0)} s, ${base.packages} packages, ${gigabytes(base.bytes)}`,
	);
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
	// n8n's LangChain tool nodes: without the add-on, one message naming the nodes and the command.
	const calculatorAgent = join(repo, 'fixtures/workflows/calculator-agent.json');
	const missing = run('npx', ['--no-install', 'toolbridge', 'tools', calculatorAgent], {
		cwd: user,
		expectStatus: 2,
	});
	const installLine = /Add the missing packages with: (npm install .*)$/m.exec(missing.stderr)?.[1];
	check(
		missing.stderr.includes(
			'"Calculator" (@n8n/n8n-nodes-langchain.toolCalculator): it is of package @n8n/n8n-nodes-langchain, which is not installed',
		) &&
			installLine ===
				`npm install --prefix ${user} --ignore-scripts @n8n/n8n-nodes-langchain@2.41.1`,
		'without the add-on: every LangChain node named, and the one install command',
	);
	started = performance.now();
	run('npm', [...installLine.split(' ').slice(1), '--no-audit', '--no-fund'], { cwd: work });
	const addOn = {
		seconds: (performance.now() - started) / 1000,
		bytes: folderBytes(join(user, 'node_modules')),
		packages: packageCount(join(user, 'node_modules')),
	};
	say(
		`measured: the add-on ${addOn.seconds.toFixed(0)} s, +${addOn.packages - base.packages} packages, +${gigabytes(addOn.bytes - base.bytes)} (total ${gigabytes(addOn.bytes)})`,
	);
	const calculatorTools = run(
		'npx',
		['--no-install', 'toolbridge', 'tools', calculatorAgent, '--json'],
		{ cwd: user },
	);
	const [agentGroup] = JSON.parse(calculatorTools.stdout).agents;
	check(
		agentGroup.tools.map((tool) => tool.name).join(',') === 'Calculator,Think' &&
			agentGroup.tools[0].parameters.properties.input.type === 'string',
		"with the add-on: n8n's Calculator and Think, with n8n's schema",
	);
	const computed = run(
		'npx',
		[
			'--no-install',
			'toolbridge',
			'call',
			calculatorAgent,
			'Calculator',
			'--args',
			'{"input":"2+2*3"}',
		],
		{ cwd: user },
	);
	check(computed.stdout === '8\n', "toolbridge call runs n8n's Calculator: 2+2*3 = 8");
	await checkCallWorkflowTool({ repo, user, check, say });
	await checkCodeAndHttpTools({ repo, user, check });
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

	// The README's Claude Desktop / Cursor recipe, as written, from an empty folder: npx installs both
	// packages (the tarballs stand for the unpublished n8n-toolbridge) and serves the workflow.
	const recipe = join(work, 'recipe');
	mkdirSync(recipe);
	started = performance.now();
	const [recipeTools, recipeCall] = await mcpSession(
		{
			command: 'npx',
			args: [
				'-y',
				...tarballs.flatMap((tarball) => ['-p', tarball]),
				'-p',
				'@n8n/n8n-nodes-langchain@2.41.1',
				'toolbridge',
				'mcp',
				calculatorAgent,
			],
			cwd: recipe,
			env: { npm_config_ignore_scripts: 'true' },
			timeoutMs: 15 * 60_000,
		},
		[
			{ method: 'tools/list', params: {} },
			{ method: 'tools/call', params: { name: 'Calculator', arguments: { input: '6*7' } } },
		],
	);
	say(
		`measured: npx recipe, first start (install included) ${((performance.now() - started) / 1000).toFixed(0)} s`,
	);
	check(
		recipeTools.tools.map((tool) => tool.name).join(',') === 'Calculator,Think' &&
			recipeCall.content[0].text === '42',
		"the README's npx recipe serves n8n's Calculator over MCP: 6*7 = 42",
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
