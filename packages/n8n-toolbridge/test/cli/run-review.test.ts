/**
 * Human review in `toolbridge run`, `toolbridge call` and in the library: "Sign release" (a real Crypto tool)
 * behind n8n-nodes-base's Slack review node. A terminal asks; a script without a terminal is
 * refused unless --approve-all; the library's `review` callback decides.
 */
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { runWorkflowAgent, type ToolReviewRequest } from 'n8n-nodes-toolbridge';
import { afterEach, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';
import { terminalReviewer } from '../../src/cli/terminal-reviewer';
import { repoRoot, runToolbridge } from '../support/toolbridge-process';

const workflow = `${repoRoot}/fixtures/workflows/reviewed-tools.json`;
const signature = createHash('sha256').update('v2.0.0').digest('hex');

/** A model that signs "v2.0.0", then answers with what the tool said. */
function signingModel({ index, body }: FakeRequest) {
	if (index === 0)
		return toolCallReply([
			{ id: 'call_sign', name: 'Sign_release', arguments: { text: 'v2.0.0' } },
		]);
	const tool = (body.messages as Array<{ role: string; content: string }>)
		.filter((message) => message.role === 'tool')
		.at(-1);
	return textReply(`Tool: ${tool?.content}`);
}

let model: FakeChatServer | undefined;
afterEach(async () => {
	await model?.close();
	model = undefined;
});

describe('toolbridge run with a reviewed tool', () => {
	const run = async (extra: string[] = []) => {
		model = await startFakeChatServer({ respond: signingModel });
		return runToolbridge([
			'run',
			workflow,
			'--prompt',
			'Sign v2.0.0',
			'--base-url',
			model.baseUrl,
			'--api-key',
			'sk-fake',
			...extra,
		]);
	};

	it('stdin not a terminal, no flag: refused, the model reads why, the node does not run', async () => {
		const result = await run();
		expect(result.status).toBe(0);
		expect(result.stderr).toContain(
			'Not run: Sign_release needs a person\'s approval ("Ask the team in Slack") and stdin is not a terminal',
		);
		expect(result.stdout).toContain("Not run: 'Sign_release' needs a person's approval");
		expect(result.stdout).not.toContain(signature);
	}, 120_000);

	it('--approve-all: runs', async () => {
		const result = await run(['--approve-all']);
		expect(result.status).toBe(0);
		expect(result.stdout).toContain(signature);
	}, 120_000);
});

describe('toolbridge call of a reviewed tool', () => {
	const call = (extra: string[] = []) =>
		runToolbridge(['call', workflow, 'Sign_release', '--args', '{"text":"v2.0.0"}', ...extra]);

	it('stdin not a terminal, no flag: refused (exit 1), the node does not run', async () => {
		const result = await call();
		expect(result.status).toBe(1);
		expect(result.stderr).toContain("Not run: 'Sign_release' needs a person's approval");
		expect(result.stdout).not.toContain(signature);
	}, 120_000);

	it('--approve-all: runs', async () => {
		const result = await call(['--approve-all']);
		expect(result.status).toBe(0);
		expect(result.stdout).toContain(signature);
	}, 120_000);
});

describe('terminalReviewer on a terminal', () => {
	const request: ToolReviewRequest = {
		toolName: 'Sign_release',
		reviewNodeName: 'Ask the team in Slack',
		arguments: { text: 'v2.0.0' },
		message: 'The agent wants to run this tool: Sign_release',
		approveLabel: 'Go ahead',
		declineLabel: 'Stop',
	};
	const terminal = () => Object.assign(new PassThrough(), { isTTY: true });

	it('asks with the gate’s message and labels; y approves, other words decline with a reason', async () => {
		const input = terminal();
		let written = '';
		const review = terminalReviewer({ input, write: (text) => void (written += text) });
		const first = review(request, {});
		input.write('y\n');
		await expect(first).resolves.toEqual({ approved: true });
		expect(written).toContain('The agent wants to run this tool: Sign_release');
		expect(written).toContain(
			'Approve Sign_release ("Ask the team in Slack": Go ahead / Stop)? [y/N]',
		);
		const second = review(request, {});
		input.write('not on a Friday\n');
		await expect(second).resolves.toEqual({ approved: false, reason: 'not on a Friday' });
		const third = review(request, {});
		input.write('\n');
		await expect(third).resolves.toEqual({ approved: false, reason: undefined });
	});
});

describe('runWorkflowAgent: the review callback', () => {
	it.each([
		['approves', true],
		['declines', false],
	])(
		'%s',
		async (_, approved) => {
			model = await startFakeChatServer({ respond: signingModel });
			const asked: ToolReviewRequest[] = [];
			const run = await runWorkflowAgent(workflow, {
				prompt: 'Sign v2.0.0',
				baseUrl: model.baseUrl,
				apiKey: 'sk-fake',
				env: {},
				review: (reviewRequest) => {
					asked.push(reviewRequest);
					return approved ? { approved } : { approved, reason: 'not yet' };
				},
			});
			expect(asked).toEqual([
				expect.objectContaining({
					toolName: 'Sign_release',
					arguments: { text: 'v2.0.0' },
					message: 'The agent wants to run this tool: Sign_release\n\nInput:\n{"text":"v2.0.0"}',
					approveLabel: 'Go ahead',
					declineLabel: 'Stop',
				}),
			]);
			if (run.mode !== 'full') throw new Error('full mode expected');
			expect(run.result.output.includes(signature)).toBe(approved);
			if (!approved) expect(run.result.output).toContain('Their feedback: "not yet"');
		},
		120_000,
	);
});
