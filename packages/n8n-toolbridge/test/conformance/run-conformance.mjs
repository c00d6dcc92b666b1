#!/usr/bin/env node
// @ts-check
/**
 * `npm run test:conformance`: the official MCP conformance suite
 * (@modelcontextprotocol/conformance, pinned in packages/n8n-toolbridge/package.json; it needs
 * Node >= 22: the Node the e2e suites provision when this one is older) against the built
 * `toolbridge mcp --http` on fixtures/workflows/conformance-tools.json, whose real n8n nodes
 * are the suite's scenario tools (Code Tools, HTTP Request Tools fetching a PNG, a WAV and a
 * JSON file from a loopback page), for both requirement sets: 2025-11-25 (initialize
 * handshake) and 2026-07-28 (stateless, per-request _meta).
 *
 * The suite tests servers over HTTP only (`server --url`); stdio is covered by
 * test/mcp/conformance-tools-stdio.test.ts with the official client.
 *
 * One PASS / FAIL / expected-FAIL line per scenario and set. Exit 1 when a scenario fails that
 * baseline.json does not name, and when one it names passes (or no longer runs): the baseline
 * says, per scenario, why a tools-only server built from n8n nodes does not pass it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { provision, provisionPaths } from '../../../../test/e2e/lib/provision.mjs';

const repo = resolve(import.meta.dirname, '../../../..');
const bin = join(repo, 'packages/n8n-toolbridge/bin/toolbridge.js');
const suite = join(repo, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const baselinePath = join(import.meta.dirname, 'baseline.json');
const REQUIREMENT_SETS = ['2025-11-25', '2026-07-28'];
const work = mkdtempSync(join(tmpdir(), 'toolbridge-conformance-'));

/** @type {{ expectedFailures: Record<string, string> }} */
const baseline = JSON.parse(readFileSync(baselinePath, 'utf8'));

/**
 * A Node the suite runs on (>= 22): this one, else the e2e suites' provisioned Node.
 * @returns {Promise<string>}
 */
async function suiteNode() {
	if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
	const paths = provisionPaths();
	// The Node step is the first of the provisioning; its stamp says the binary is complete.
	if (existsSync(join(paths.root, '.step-node')) && existsSync(paths.nodeBin)) return paths.nodeBin;
	return (await provision({ log: (line) => console.log(line) })).nodeBin;
}

/** A 1×1 red PNG. */
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
	'base64',
);

/**
 * A WAV file: 0.1 s of a 440 Hz tone, 8 kHz mono 16-bit PCM.
 * @returns {Buffer}
 */
function toneWav() {
	const rate = 8000;
	const samples = rate / 10;
	const wav = Buffer.alloc(44 + samples * 2);
	wav.write('RIFF', 0);
	wav.writeUInt32LE(36 + samples * 2, 4);
	wav.write('WAVEfmt ', 8);
	wav.writeUInt32LE(16, 16);
	wav.writeUInt16LE(1, 20);
	wav.writeUInt16LE(1, 22);
	wav.writeUInt32LE(rate, 24);
	wav.writeUInt32LE(rate * 2, 28);
	wav.writeUInt16LE(2, 32);
	wav.writeUInt16LE(16, 34);
	wav.write('data', 36);
	wav.writeUInt32LE(samples * 2, 40);
	for (let index = 0; index < samples; index += 1)
		wav.writeInt16LE(
			Math.round(8000 * Math.sin((2 * Math.PI * 440 * index) / rate)),
			44 + index * 2,
		);
	return wav;
}

/** What the HTTP Request Tools of the fixture fetch. */
const ASSETS = {
	'/red-pixel.png': { type: 'image/png', body: PNG },
	'/tone.wav': { type: 'audio/wav', body: toneWav() },
	'/resource.json': { type: 'application/json', body: Buffer.from('{"test":"data","value":123}') },
};

/**
 * Serves ASSETS on a loopback port.
 * @returns {Promise<{ port: number, close: () => void }>}
 */
function startAssets() {
	const server = createServer((request, response) => {
		const asset = ASSETS[/** @type {keyof typeof ASSETS} */ (request.url ?? '')];
		if (!asset) return void response.writeHead(404).end();
		response.writeHead(200, { 'content-type': asset.type, 'content-length': asset.body.length });
		response.end(asset.body);
	});
	return new Promise((resolveStart) =>
		server.listen(0, '127.0.0.1', () =>
			resolveStart({
				port: /** @type {import('node:net').AddressInfo} */ (server.address()).port,
				close: () => server.close(),
			}),
		),
	);
}

/**
 * Starts `toolbridge mcp --http` on the fixture and resolves once its tools are served.
 * @param {string} workflow
 * @returns {Promise<{ url: string, stop: () => void, stderr: () => string }>}
 */
function startServer(workflow) {
	const child = spawn(process.execPath, [bin, 'mcp', workflow, '--http', '127.0.0.1:0'], {
		cwd: repo,
		env: { PATH: process.env.PATH ?? '', HOME: work },
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	let stderr = '';
	return new Promise((resolveStart, reject) => {
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`toolbridge mcp did not serve its tools within 120 s:\n${stderr}`));
		}, 120_000);
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`toolbridge mcp exited (${code}):\n${stderr}`));
		});
		child.stderr.on('data', (chunk) => {
			stderr += chunk;
			const match = /serving .* at (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(stderr);
			if (!match) return;
			clearTimeout(timer);
			child.removeAllListeners('exit');
			resolveStart({
				url: `${match[1]}/mcp`,
				stop: () => child.kill('SIGTERM'),
				stderr: () => stderr,
			});
		});
	});
}

/**
 * Runs the suite for one requirement set; the verdict per scenario from its summary, the
 * failing checks' messages from its results folder.
 * @param {string} node
 * @param {string} url
 * @param {string} requirements
 * @returns {Promise<Map<string, { passed: boolean, failures: Array<{ id: string, message: string }> }>>}
 */
async function runSuite(node, url, requirements) {
	const outputDir = join(work, `results-${requirements}`);
	const output = await new Promise((resolveRun, reject) => {
		const child = spawn(
			node,
			// A scenario's first tool call loads n8n's task runner: more than the default 30 s
			// on a busy machine.
			[
				suite,
				'server',
				'--url',
				url,
				'--requirements',
				requirements,
				'--timeout',
				'120000',
				'-o',
				outputDir,
			],
			{ cwd: work, stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let text = '';
		child.stdout.on('data', (chunk) => (text += chunk));
		child.stderr.on('data', (chunk) => (text += chunk));
		const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
		child.once('error', reject);
		// Its exit code says "not conformant"; the baseline decides here.
		child.once('exit', () => {
			clearTimeout(timer);
			resolveRun(text);
		});
	});
	const summary = output.split('=== SUMMARY ===')[1];
	if (!summary) throw new Error(`the suite printed no summary for ${requirements}:\n${output}`);
	const verdicts = new Map();
	for (const [, mark, scenario] of summary.matchAll(/^([✓✗]) (\S+): \d+ passed, \d+ failed$/gmu)) {
		const folder = readdirSync(outputDir).find((name) =>
			new RegExp(`^server-${scenario.replace(/[^\w-]/g, '.')}-\\d{4}-`).test(name),
		);
		const checks = folder
			? JSON.parse(readFileSync(join(outputDir, folder, 'checks.json'), 'utf8'))
			: [];
		const failures = checks
			.filter((/** @type {any} */ check) => check.status === 'FAILURE')
			.map((/** @type {any} */ check) => ({
				id: String(check.id),
				message: String(check.errorMessage ?? check.description),
			}));
		verdicts.set(scenario, { passed: mark === '✓', failures });
	}
	if (verdicts.size === 0) throw new Error(`no scenario verdicts for ${requirements}:\n${output}`);
	return verdicts;
}

const started = performance.now();
const node = await suiteNode();
const assets = await startAssets();
const workflow = join(work, 'conformance-tools.json');
writeFileSync(
	workflow,
	readFileSync(join(repo, 'fixtures/workflows/conformance-tools.json'), 'utf8').replaceAll(
		'ASSETS_PORT',
		String(assets.port),
	),
);
const server = await startServer(workflow);
let unexpected = 0;
/** @type {Set<string>} */
const ran = new Set();
/** Baseline keys that matched a failure: a scenario, or scenario:check-id. */
const matched = new Set();
try {
	for (const requirements of REQUIREMENT_SETS) {
		const setStarted = performance.now();
		const verdicts = await runSuite(node, server.url, requirements);
		const seconds = ((performance.now() - setStarted) / 1000).toFixed(1);
		console.log(`== requirements ${requirements}: ${verdicts.size} scenarios in ${seconds} s`);
		for (const [scenario, { passed, failures }] of verdicts) {
			ran.add(scenario);
			if (passed) {
				console.log(`PASS ${requirements} ${scenario}`);
				continue;
			}
			const reason = baseline.expectedFailures[scenario];
			if (reason) {
				matched.add(scenario);
				console.log(`FAIL ${requirements} ${scenario} (expected: ${reason})`);
				continue;
			}
			// Checks the baseline names one by one; any other failing check is unexpected.
			const surprises = failures.filter((failure) => {
				const key = `${scenario}:${failure.id}`;
				if (!baseline.expectedFailures[key]) return true;
				matched.add(key);
				return false;
			});
			if (surprises.length === 0 && failures.length > 0) {
				const ids = failures.map((failure) => failure.id).join(', ');
				console.log(`FAIL ${requirements} ${scenario} (expected: checks ${ids}, see baseline)`);
				continue;
			}
			unexpected += 1;
			console.log(`FAIL ${requirements} ${scenario} (UNEXPECTED)`);
			for (const failure of surprises.length > 0 ? surprises : failures)
				console.log(`     ${failure.id}: ${failure.message}`);
		}
	}
} finally {
	server.stop();
	assets.close();
}
// A baseline entry that failed in no requirement set (it passes now, or did not run) is stale.
const stale = Object.keys(baseline.expectedFailures).filter((key) => !matched.has(key));
for (const key of stale)
	console.log(
		`STALE baseline entry ${key}: it ${ran.has(key.split(':')[0]) ? 'passes now' : 'did not run'}; remove it from ${baselinePath}`,
	);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
	`== conformance: ${ran.size} scenarios, ${unexpected} unexpected failures, ${stale.length} stale baseline entries (${seconds} s)`,
);
process.exit(unexpected > 0 || stale.length > 0 ? 1 : 0);
