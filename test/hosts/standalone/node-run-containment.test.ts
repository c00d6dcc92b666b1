/**
 * `containNodeRun`: what a node's library throws or rejects outside the run's promise ends that
 * run with a `StrayNodeError` naming the node, never the process; what is not a node run's is
 * left to the process. Each scenario runs in a child process (see the scenario file).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');

function scenario(name: string) {
	const result = spawnSync(
		process.execPath,
		['--import', 'tsx', 'test/hosts/standalone/node-run-containment-scenario.ts', name],
		{ cwd: root, encoding: 'utf8', timeout: 60_000 },
	);
	const lines = result.stdout
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => JSON.parse(line) as Record<string, unknown>);
	return { status: result.status, lines, stderr: result.stderr };
}

const strayMessage = (text: string) =>
	`an error escaped the node's run (thrown outside its promise, e.g. by its client library): ${text}`;

describe('containNodeRun', () => {
	it("a stray rejection or throw in a run's async context ends that run only; the process goes on", () => {
		const { status, lines } = scenario('attributed');
		expect(lines).toEqual([
			{
				error: 'StrayNodeError',
				code: 'NODE_STRAY_ERROR',
				node: 'Milvus knowledge',
				message: strayMessage('14 UNAVAILABLE: connect ECONNREFUSED 127.0.0.1:19530'),
			},
			{
				error: 'StrayNodeError',
				code: 'NODE_STRAY_ERROR',
				node: 'Milvus knowledge',
				message: strayMessage('socket hang up'),
			},
			{ value: 'qdrant answered' },
			{ alive: true },
		]);
		expect(status).toBe(0);
	}, 60_000);

	it('a stray error no run claims, while runs are in flight, fails all of them', () => {
		const { status, lines } = scenario('unattributed');
		expect(lines.map((line) => [line.node, line.message])).toEqual([
			['Milvus knowledge', strayMessage('stray from nowhere')],
			['Qdrant store', strayMessage('stray from nowhere')],
			[undefined, undefined],
		]);
		expect(lines.at(-1)).toEqual({ alive: true });
		expect(status).toBe(0);
	}, 60_000);

	it('an error from a run that has ended is a process warning naming the node', () => {
		const { status, lines } = scenario('late');
		expect(lines).toEqual([
			{ value: 'answered' },
			{
				warning:
					'Node "Milvus knowledge" (@n8n/n8n-nodes-langchain.vectorStoreMilvus) raised an error after its run had ended: pool closed',
				code: 'TOOLBRIDGE_LATE_NODE_ERROR',
			},
			{ alive: true },
		]);
		expect(status).toBe(0);
	}, 60_000);

	it("a late error's warning is redacted by the run's redactor", () => {
		const { status, lines } = scenario('lateRedacted');
		expect(lines).toEqual([
			{ value: 'answered' },
			{
				warning:
					'Node "Milvus knowledge" (@n8n/n8n-nodes-langchain.vectorStoreMilvus) raised an error after its run had ended: auth failed for user:[REDACTED]',
			},
			{ alive: true },
		]);
		expect(status).toBe(0);
	}, 60_000);

	it('an error that is no node run’s, with none in flight, ends the process as Node would', () => {
		const { status, lines, stderr } = scenario('notOurs');
		expect(lines).toEqual([{ value: 'answered' }]);
		expect(status).toBe(1);
		expect(stderr).toContain('Error: a bug that is not a node run');
	}, 60_000);

	it('onUncontainedError: such an error goes to the handler instead', () => {
		const { status, lines } = scenario('handler');
		expect(lines).toEqual([
			{ value: 'answered' },
			{ handled: 'uncontained', origin: 'rejection' },
			{ alive: true },
		]);
		expect(status).toBe(0);
	}, 60_000);
});
