/**
 * The hints the node puts in NodeOperationError's description: every error code this
 * package can throw (read from every error class under src/, so a new code without a hint fails here) has
 * a specific one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeOperationError, type INode } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { describeAgentError } from '../../../../src/hosts/n8n/output/describe-agent-error';
import { RunTimeLimitReason } from '../../../../src/agent/time-limits/run-time-limit';
import { AgentStoppedError } from '../../../../src/agent/agent-stopped-error';
import { ValidatorError } from '../../../../src/agent/modes/validator/validator-error';
import { ChatTimeoutError } from '../../../../src/errors/chat-timeout-error';
import { ToolbridgeError } from '../../../../src/errors/toolbridge-error';

const sourceFolder = join(__dirname, '../../../../src');
/** Every quoted UPPER_SNAKE code in the error classes (the error classes' files, wherever their layer keeps them; the CLI's usage error never reaches the node). */
const codes = [
	...new Set(
		(readdirSync(sourceFolder, { recursive: true }) as string[])
			.filter((file) => file.endsWith('-error.ts') && !file.startsWith('cli/'))
			.map((file) => readFileSync(join(sourceFolder, file), 'utf8'))
			.filter((text) => /class \w+ extends \w*Error\b/.test(text))
			.flatMap((text) =>
				[...text.matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)].map((match) => match[1]),
			),
	),
].sort();
const generic = 'The model call failed. Check the credential, the base URL and the model name.';
const details = {
	steps: [],
	usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
	iterations: 1,
};

describe('describeAgentError', () => {
	it('finds the codes to check', () => {
		expect(codes).toEqual(
			expect.arrayContaining([
				'AGENT_INVALID_OUTPUT',
				'CHAT_STREAM_STALLED',
				'ENGINE_STATE',
				'FROM_AI_SYNTAX',
				'VALIDATOR_TOOL_FAILED',
			]),
		);
	});

	it.each(codes)('has a specific hint for %s', (code) => {
		const hint = describeAgentError(new ToolbridgeError(code, 'message'));
		expect(hint).toEqual(expect.any(String));
		expect(hint).not.toBe(generic);
	});

	it('tells a stalled stream from a slow response (the stall options)', () => {
		expect(describeAgentError(new ChatTimeoutError(30_000, 'stall'))).toContain(
			'"Stall Timeout (Seconds)"',
		);
		expect(describeAgentError(new ChatTimeoutError(30_000, 'first-token'))).toContain(
			'"First Token Timeout (Seconds)"',
		);
		expect(describeAgentError(new ChatTimeoutError(30_000, 'response'))).toContain(
			'"Timeout (Seconds)"',
		);
	});

	it('points an invalid structured answer at the schema and the strategy', () => {
		const error = new AgentStoppedError(
			'invalid-output',
			"The model's answer did not match the output JSON Schema after one repair attempt.",
			details,
		);
		expect(describeAgentError(error)).toMatch(/"Output Schema".*"Output Strategy"/);
	});

	it('tells the whole-run time limit from a cancelled execution', () => {
		const timedOut = new AgentStoppedError(
			'aborted',
			`The agent stopped: aborted (${new RunTimeLimitReason(5000).message}).`,
			details,
		);
		expect(describeAgentError(timedOut)).toContain('"Run Timeout (Seconds)"');
		expect(
			describeAgentError(
				new AgentStoppedError('aborted', 'The agent stopped: the run was aborted.', details),
			),
		).toBe('The execution was cancelled.');
		// Validator mode has the same limit.
		const validatorTimedOut = new ValidatorError(
			'aborted',
			`The validator stopped: aborted (${new RunTimeLimitReason(5000).message}).`,
			{ attempts: [], usage: details.usage },
		);
		expect(describeAgentError(validatorTimedOut)).toContain('"Run Timeout (Seconds)"');
		expect(
			describeAgentError(
				new ValidatorError('aborted', 'The validator stopped: the run was aborted.', {
					attempts: [],
					usage: details.usage,
				}),
			),
		).toBe('The execution was cancelled.');
	});

	it("says nothing about errors that are not this package's", () => {
		const node = { name: 'Agent' } as INode;
		expect(describeAgentError(new Error('x'))).toBeUndefined();
		expect(describeAgentError(new NodeOperationError(node, 'x'))).toBeUndefined();
		expect(describeAgentError(new ToolbridgeError('SOMETHING_ELSE', 'x'))).toBeUndefined();
	});
});
