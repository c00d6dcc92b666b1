/**
 * `reserveStdout`: once the CLI reserved stdout, only what it writes through the reservation
 * reaches stdout; `console.log`, `console.info` and direct `process.stdout.write` calls (a
 * library's, a logger's console transport) land on stderr. In a process of its own.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/toolbridge-process';

const script = `
const { reserveStdout } = require('./packages/n8n-toolbridge/src/cli/reserved-stdout.ts');
const stdout = reserveStdout();
console.log('console.log line');
console.info('console.info line');
process.stdout.write('direct write\\n');
stdout.write('promised line\\n');
stdout.stream.write('protocol line\\n');
console.log(reserveStdout() === stdout ? 'same reservation' : 'another reservation');
`;

describe('reserveStdout', () => {
	it('keeps stdout for what is written through it; everything else goes to stderr', () => {
		const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
			cwd: repoRoot,
			encoding: 'utf8',
			timeout: 30_000,
		});
		expect(result.status).toBe(0);
		expect(result.stdout).toBe('promised line\nprotocol line\n');
		expect(result.stderr).toBe(
			'console.log line\nconsole.info line\ndirect write\nsame reservation\n',
		);
	});
});
