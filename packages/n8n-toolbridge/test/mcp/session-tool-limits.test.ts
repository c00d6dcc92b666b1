/**
 * A session's tools — what `toolbridge call` and MCP's tools/call run — have the loop's tool
 * time limit and stop when the client cancels, on a real node that honours n8n's cancel
 * signal (n8n-nodes-base Wait, 6 s).
 */
import { openWorkflowSession } from 'n8n-nodes-toolbridge';
import { describe, expect, it } from 'vitest';
import { agentWorkflow, waitToolNode } from '../../../../test/support/real-tool-nodes';
import { mcpToolFromAgentTool } from '../../src/mcp/mcp-tool';

const waitWorkflow = agentWorkflow('Agent', { prompt: '=x' }, [waitToolNode()]);

const client = () => ({ signal: new AbortController().signal, progress: () => undefined });

describe("a session's tool call has a time limit", () => {
	it('a node that runs too long is stopped after the limit: an isError result saying so, long before its end', async () => {
		const session = await openWorkflowSession(waitWorkflow, { env: {}, toolTimeoutMs: 50 });
		const started = Date.now();
		const observation = await mcpToolFromAgentTool(session.tools[0]).call({ seconds: 6 }, client());
		expect(Date.now() - started).toBeLessThan(3_000);
		expect(observation).toMatchObject({
			isError: true,
			content: expect.stringMatching(/^Tool 'Wait' did not finish within 0\.05 s and was stopped/),
		});
	});

	it('the default limit is the loop’s (120 s): a short run answers', async () => {
		const session = await openWorkflowSession(waitWorkflow, { env: {} });
		expect(
			await mcpToolFromAgentTool(session.tools[0]).call({ seconds: 0.05 }, client()),
		).toMatchObject({ isError: false });
	});

	it('the client’s cancellation stops the call at once', async () => {
		const session = await openWorkflowSession(waitWorkflow, { env: {} });
		const controller = new AbortController();
		const pending = mcpToolFromAgentTool(session.tools[0]).call(
			{ seconds: 6 },
			{ signal: controller.signal, progress: () => undefined },
		);
		controller.abort(new Error('cancelled by the client'));
		expect(await pending).toMatchObject({
			isError: true,
			content: expect.stringContaining("Tool 'Wait' was stopped before it finished"),
		});
	});
});
