import type { AgentTool } from 'n8n-nodes-toolbridge';
import { describe, expect, it } from 'vitest';
import { mcpToolFromAgentTool } from '../../src/mcp/mcp-tool';

/** A tool that never answers and ignores its signal (a node stuck on a dead connection). */
const hangingTool = (): AgentTool & { signals: AbortSignal[] } => {
	const signals: AbortSignal[] = [];
	return {
		name: 'stuck',
		description: 'Never answers',
		parameters: { type: 'object', properties: {} },
		signals,
		invoke: (_args, options) => {
			if (options.signal) signals.push(options.signal);
			return new Promise(() => undefined);
		},
	};
};

describe('an MCP tool call has a time limit', () => {
	it('a hanging tool is stopped after the limit: an isError result saying so, its signal aborted', async () => {
		const tool = hangingTool();
		const observation = await mcpToolFromAgentTool(tool, undefined, 50).call(
			{},
			{ signal: new AbortController().signal, progress: () => undefined },
		);
		expect(observation).toMatchObject({
			isError: true,
			content: expect.stringMatching(/^Tool 'stuck' did not finish within 0\.05 s and was stopped/),
		});
		expect(tool.signals[0]?.aborted).toBe(true);
	});

	it('the client’s cancellation stops the call at once', async () => {
		const controller = new AbortController();
		const pending = mcpToolFromAgentTool(hangingTool(), undefined, 60_000).call(
			{},
			{ signal: controller.signal, progress: () => undefined },
		);
		controller.abort(new Error('cancelled by the client'));
		expect(await pending).toMatchObject({
			isError: true,
			content: expect.stringContaining("Tool 'stuck' was stopped before it finished"),
		});
	});
});
