/**
 * The node log lines of a call reach the listener of that call (AsyncLocalStorage), also when
 * calls run side by side; n8n's "send to the editor's console" becomes such a line.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
	emitNodeLogLine,
	sendNodeConsoleToListener,
	withNodeLogListener,
	type NodeLogLine,
} from '../../../src/hosts/standalone/node-log-lines';

describe('node log lines', () => {
	it('go to the listener of the call they were written in, with calls side by side', async () => {
		const first: NodeLogLine[] = [];
		const second: NodeLogLine[] = [];
		const call = (name: string) => async () => {
			for (let index = 0; index < 3; index += 1) {
				await sleep(5);
				emitNodeLogLine({ level: 'info', message: `${name} ${index}` });
			}
		};
		await Promise.all([
			withNodeLogListener((line) => first.push(line), call('first')),
			withNodeLogListener((line) => second.push(line), call('second')),
		]);
		expect(first.map((line) => line.message)).toEqual(['first 0', 'first 1', 'first 2']);
		expect(second.map((line) => line.message)).toEqual(['second 0', 'second 1', 'second 2']);
	});

	it('outside a call: no listener takes it', () => {
		expect(emitNodeLogLine({ level: 'info', message: 'nobody listens' })).toBe(false);
	});

	it("a listener's failure does not reach the node that logged", async () => {
		await withNodeLogListener(
			() => {
				throw new Error('client gone');
			},
			async () => {
				expect(emitNodeLogLine({ level: 'error', message: 'still fine' })).toBe(true);
			},
		);
	});

	it("n8n's console message for the editor becomes one line naming the node", async () => {
		const lines: NodeLogLine[] = [];
		await withNodeLogListener(
			(line) => lines.push(line),
			async () => {
				sendNodeConsoleToListener('sendConsoleMessage', {
					source: '[Node: "Shout"]',
					// Strings as n8n's task runner hands them over: in single quotes.
					messages: ["'count'", 3, { ok: true }],
				});
				sendNodeConsoleToListener('nodeExecuteAfter', { source: 'ignored' });
			},
		);
		expect(lines).toEqual([{ level: 'info', node: 'Shout', message: 'count 3 {"ok":true}' }]);
	});
});
