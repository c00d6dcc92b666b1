/**
 * `--workflows DIR` on the command line: `toolbridge call` runs a tool whose node calls an
 * exported sub-workflow; a reference back to the workflow's own file needs no folder; an id
 * the folder does not have falls back to the file's own trigger with a note on stderr.
 */
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands';
import { runCli } from '../../src/cli/run-cli';
import { repoRoot } from '../support/toolbridge-process';

const workflow = `${repoRoot}/fixtures/workflows/sub-workflow-tools.json`;
const library = `${repoRoot}/fixtures/workflows/sub-workflows`;

async function toolbridge(args: string[]) {
	let stdout = '';
	let stderr = '';
	const code = await runCli(args, commands, {
		stdout: (text) => (stdout += text),
		stderr: (text) => (stderr += text),
		env: {},
	});
	return { code, stdout, stderr };
}

describe('toolbridge with --workflows', () => {
	it('call: the Execute Workflow tool runs "Add numbers" from the folder', async () => {
		const result = await toolbridge([
			'call',
			workflow,
			'Add_numbers',
			'--args',
			'{"a":2,"b":3}',
			'--workflows',
			library,
		]);
		expect(result).toEqual({
			code: 0,
			stdout: `${JSON.stringify([{ sum: 5, got: JSON.stringify({ a: 2, b: 3 }) }])}\n`,
			stderr: '',
		});
	});

	it('call: {{ $workflow.id }} is this file, no folder needed', async () => {
		const result = await toolbridge(['call', workflow, 'Shout', '--args', '{"text":"hi"}']);
		expect(result).toEqual({ code: 0, stdout: '[{"shout":"HI!"}]\n', stderr: '' });
	});

	it('an id the folder does not have, in a file with its own trigger: that trigger runs, and stderr says so', async () => {
		const result = await toolbridge(['call', workflow, 'Add_numbers', '--args', '{"a":2,"b":3}']);
		expect(result.stderr).toBe(
			'Note: Node "Add numbers" calls workflow "sub-add", which is not among the given workflows: running this workflow\'s own Execute Workflow Trigger instead (templates from n8n.io keep their author\'s workflow id). Pass the sub-workflow\'s export with --workflows DIR if it is another workflow.\n',
		);
		expect(result.stdout).toBe('[{"shout":"!"}]\n');
	});

	it('tools --help lists --workflows', async () => {
		const result = await toolbridge(['tools', '--help']);
		expect(result.stdout).toContain('--workflows DIR');
	});
});
