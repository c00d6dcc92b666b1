/**
 * openWorkflowSession: what `toolbridge call`, `mcp`, `serve` and `run` open a workflow with —
 * host, credentials, redactor, tools wrapped with their time limit and output boundary, the
 * guard as an option — and the host's one timezone rule.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openWorkflowSession } from '../../../src/hosts/standalone/session/open-workflow-session';
import { workflowTimezone } from '../../../src/hosts/standalone/one-node-workflow';
import { createNodeParameterReader } from '../../../src/hosts/standalone/workflow/node-parameter-reader';
import { AgentNotFoundError } from '../../../src/errors/agent-not-found-error';
import { sharedHost, workflowFixture } from '../../tools/helpers';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('openWorkflowSession', () => {
	it("loads the agent's tools, found by tool or node name, each call through the session's boundary", async () => {
		const session = await openWorkflowSession(workflowFixture('text-tools.json'), {
			host: await sharedHost(),
			apiKey: 'sk-or-v1-session-test-key-0123456789',
			maxOutputLength: 30,
		});
		expect(session.agentNode?.name).toBe('Agent');
		expect(session.findTool('Hash text')).toBe(session.findTool('Hash_text'));
		const observation = await session
			.findTool('Hash_text')!
			.invoke({ text: 'abc' }, { toolCallId: 'c1' });
		// Capped once, at the session's boundary; the value is dropped with the whole text.
		const whole = JSON.stringify([{ sha256: sha256('abc') }]);
		expect(observation.content).toBe(
			`${whole.slice(0, 30)}\n[Output truncated: showing the first 30 of ${whole.length} characters.]`,
		);
		expect(observation.value).toBeUndefined();
		expect(session.redactor.text('key sk-or-v1-session-test-key-0123456789')).toBe(
			'key [REDACTED]',
		);
	});

	it('the guard stands around every node run of the session: it may answer instead of the node', async () => {
		const seen: string[] = [];
		const session = await openWorkflowSession(workflowFixture('text-tools.json'), {
			host: await sharedHost(),
			guard: async ({ node }, run) => {
				seen.push(node.name);
				if (node.name === 'Hash text')
					return { items: [], error: { name: 'GuardError', message: 'not today' } };
				return run();
			},
		});
		expect(
			(await session.findTool('Hash_text')!.invoke({ text: 'x' }, { toolCallId: 'g1' })).content,
		).toBe('Error: node "Hash text" failed: not today');
		expect(
			(
				await session
					.findTool('Format_date')!
					.invoke({ date: '2024-03-05T10:00:00Z' }, { toolCallId: 'g2' })
			).isError,
		).toBe(false);
		expect(seen).toEqual(['Hash text', 'Format date']);
	});

	it('loadTools: false opens a workflow of several agents without choosing one', async () => {
		await expect(
			openWorkflowSession(workflowFixture('two-agents.json'), { host: await sharedHost() }),
		).rejects.toBeInstanceOf(AgentNotFoundError);
		const session = await openWorkflowSession(workflowFixture('two-agents.json'), {
			host: await sharedHost(),
			loadTools: false,
		});
		expect(session.agentNode).toBeUndefined();
		expect(session.tools).toEqual([]);
	});
});

describe('one timezone rule', () => {
	it("the workflow's own timezone, else GENERIC_TIMEZONE, else n8n's default", () => {
		expect(workflowTimezone('Asia/Tokyo', { GENERIC_TIMEZONE: 'Europe/Berlin' })).toBe(
			'Asia/Tokyo',
		);
		expect(workflowTimezone('DEFAULT', { GENERIC_TIMEZONE: 'Europe/Berlin' })).toBe(
			'Europe/Berlin',
		);
		expect(workflowTimezone(undefined, {})).toBe('America/New_York');
	});

	it('settings readers resolve $now in the same timezone as node runs (GENERIC_TIMEZONE applies to both)', () => {
		const previous = process.env.GENERIC_TIMEZONE;
		process.env.GENERIC_TIMEZONE = 'Asia/Tokyo';
		try {
			const reader = createNodeParameterReader(
				{
					id: 'a',
					name: 'Agent',
					type: 'x.unknown',
					typeVersion: 1,
					position: [0, 0],
					parameters: { prompt: '={{ $now.zoneName }}' },
				},
				{ item: {}, timezone: 'DEFAULT' },
			);
			expect(reader.get('prompt')).toBe('Asia/Tokyo');
		} finally {
			if (previous === undefined) delete process.env.GENERIC_TIMEZONE;
			else process.env.GENERIC_TIMEZONE = previous;
		}
	});
});
