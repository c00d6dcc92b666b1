#!/usr/bin/env node
// @ts-check
/**
 * `npm run test:replicas`: `toolbridge mcp --http` scales by adding replicas. Three processes
 * (the built CLI, fixtures/workflows/crypto-agent.json) behind a small loopback round-robin
 * proxy; an MCP 2026-07-28 client (SDK v2, pinned), a 2025 client (SDK v2 in 2025 mode) and
 * the SDK v1 client each make 30 real tool calls (Crypto SHA-256), interleaved, so their
 * requests spread over all three. Before call 16 replica #2 is killed (SIGKILL, exit awaited):
 * the next calls must still succeed. The proxy moves to the next replica only when a
 * connection is refused (nothing was sent); it never re-sends a request a replica received,
 * since the tool may have run. Then the conversations: three `serve` replicas sharing
 * `--store redis://…` (conversation-replicas.mjs). Prints the figures; exit 1 on any failure.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runConversationReplicas } from './conversation-replicas.mjs';
import { startRoundRobinProxy } from './round-robin-proxy.mjs';

const repo = resolve(import.meta.dirname, '../../../..');
const bin = join(repo, 'packages/n8n-toolbridge/bin/toolbridge.js');
const workflow = join(repo, 'fixtures/workflows/crypto-agent.json');
const CALLS = 30;
const KILL_BEFORE = 16;
/** 30 conversations × 3 turns on each of the two APIs (conversation-replicas.mjs). */
const CONVERSATIONS_CHECKED = 60;
const sha256 = (/** @type {string} */ text) => createHash('sha256').update(text).digest('hex');

/** @returns {Promise<{ child: import('node:child_process').ChildProcess, port: number, served: number, stderr: () => string }>} */
function startReplica() {
	const child = spawn(process.execPath, [bin, 'mcp', workflow, '--http', '127.0.0.1:0'], {
		cwd: repo,
		env: { PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'toolbridge-replica-')) },
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	let stderr = '';
	return new Promise((resolvePromise, reject) => {
		child.stderr?.on('data', (data) => {
			stderr += data;
			const match = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
			if (match) resolvePromise({ child, port: Number(match[1]), served: 0, stderr: () => stderr });
		});
		child.once('exit', (code) => reject(new Error(`replica exited ${code}:\n${stderr}`)));
	});
}

/** @param {number} port */
async function waitReady(port) {
	for (;;) {
		const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
		if (response?.status === 200) return;
		await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
	}
}

async function main() {
	const started = performance.now();
	const replicas = await Promise.all([startReplica(), startReplica(), startReplica()]);
	await Promise.all(replicas.map((replica) => waitReady(replica.port)));
	console.log(
		`3 replicas ready in ${Math.round(performance.now() - started)} ms (ports ${replicas.map((replica) => replica.port).join(', ')})`,
	);

	const proxy = await startRoundRobinProxy(replicas);
	const url = new URL(`${proxy.url}/mcp`);

	/** @type {Array<{ label: string, call: (text: string) => Promise<any>, close: () => Promise<void>, protocol: string | undefined, ok: number, failures: string[], ms: number[] }>} */
	const clients = [];
	for (const [label, mode] of /** @type {const} */ ([
		['SDK v2, 2026-07-28', { pin: '2026-07-28' }],
		['SDK v2, 2025', 'legacy'],
	])) {
		const client = new Client({ name: label, version: '1' }, { versionNegotiation: { mode } });
		await client.connect(new StreamableHTTPClientTransport(url));
		clients.push({
			label,
			call: (text) => client.callTool({ name: 'Hash_text', arguments: { text } }),
			close: () => client.close(),
			protocol: client.getNegotiatedProtocolVersion(),
			ok: 0,
			failures: [],
			ms: [],
		});
	}
	const v1 = new V1Client({ name: 'SDK v1', version: '1' });
	await v1.connect(new V1HttpTransport(url));
	clients.push({
		label: 'SDK v1, 2025',
		call: (text) => v1.callTool({ name: 'Hash_text', arguments: { text } }),
		close: () => v1.close(),
		protocol: '2025 (v1 client)',
		ok: 0,
		failures: [],
		ms: [],
	});

	for (let call = 1; call <= CALLS; call++) {
		if (call === KILL_BEFORE) {
			const exited = new Promise((resolvePromise) =>
				replicas[1].child.once('exit', resolvePromise),
			);
			replicas[1].child.kill('SIGKILL');
			await exited;
			console.log(`replica #2 killed before call ${call}`);
		}
		for (const client of clients) {
			const text = `${client.label} #${call}`;
			const callStarted = performance.now();
			try {
				const result = await client.call(text);
				client.ms.push(performance.now() - callStarted);
				const hash = result.structuredContent?.result?.[0]?.hash;
				if (!result.isError && hash === sha256(text)) client.ok++;
				else client.failures.push(`${call}: ${JSON.stringify(result).slice(0, 200)}`);
			} catch (error) {
				client.failures.push(`${call}: ${/** @type {Error} */ (error).message}`);
			}
		}
	}
	let failed = 0;
	for (const client of clients) {
		const sorted = [...client.ms].sort((a, b) => a - b);
		console.log(
			`${client.label.padEnd(20)} protocol ${String(client.protocol).padEnd(18)} ${client.ok}/${CALLS} ok, median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms per call${client.failures.length ? `\n  failures: ${client.failures.join('\n  ')}` : ''}`,
		);
		failed += client.failures.length;
		await client.close().catch(() => undefined);
	}
	console.log(
		`requests answered per replica: ${replicas.map((replica) => replica.served).join(', ')} (#2 killed before call ${KILL_BEFORE})`,
	);
	const calledOn = replicas.map(
		(replica) => (replica.stderr().match(/tools\/call Hash_text → ok/g) ?? []).length,
	);
	console.log(`tool calls run per replica: ${calledOn.join(', ')}`);
	if (calledOn.some((count) => count === 0)) {
		console.log('FAIL: a replica ran no tool call (the calls did not spread)');
		failed++;
	}
	for (const replica of replicas) replica.child.kill();
	proxy.close();
	failed += await runConversationReplicas({ repo, bin });
	console.log(
		failed === 0
			? `PASS: ${clients.length * CALLS} calls and ${CONVERSATIONS_CHECKED} conversations, 0 failed`
			: `FAIL: ${failed} failed`,
	);
	process.exitCode = failed === 0 ? 0 : 1;
}

main().catch((error) => {
	console.error(`test:replicas failed: ${error.stack ?? error}`);
	process.exitCode = 1;
});
