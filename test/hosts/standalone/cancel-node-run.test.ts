/**
 * A tool call's signal reaches the node run, and a call whose signal aborted is never a
 * success: n8n's Wait node (which honours the execution's cancel signal) is stopped through
 * the standalone host, and a runner that still hands back the node's output after the cancel
 * (as n8n-core does for Wait) is answered with an error by the bridge.
 */
import { describe, expect, it } from 'vitest';
import { createNodeAsTool } from '../../../src/tools/create-node-as-tool';
import { loadWorkflowTools } from '../../../src/hosts/standalone/load-workflow-tools';
import { agentWorkflow, hashTextToolNode, waitToolNode } from '../../support/real-tool-nodes';
import { sharedHost } from '../../tools/helpers';

describe('cancelling a node run through the tool call signal', () => {
	it('n8n-nodes-base Wait: runs to its end without a signal; with one, the call ends long before the 6 s wait, as an error', async () => {
		const { tools } = await loadWorkflowTools(
			agentWorkflow('Agent', { prompt: '=x', options: {} }, [waitToolNode()]),
			{ host: await sharedHost() },
		);
		expect(await tools[0].invoke({ seconds: 0.1 }, { toolCallId: 'w1' })).toMatchObject({
			isError: false,
		});
		const started = Date.now();
		const observation = await tools[0].invoke(
			{ seconds: 6 },
			{ toolCallId: 'w2', signal: AbortSignal.timeout(200) },
		);
		expect(Date.now() - started).toBeLessThan(3_000);
		expect(observation.isError).toBe(true);
		expect(observation.content).toMatch(/cancelled/);
	});

	it('a runner that returns the node output after the cancel: the bridge answers with an error, not the output', async () => {
		const host = await sharedHost();
		const node = hashTextToolNode();
		const tool = createNodeAsTool({
			node,
			nodeTypeDescription: host.describe(node),
			// Like n8n-core for a node that resolves on cancellation: output comes back, the signal has aborted.
			runner: { run: async () => ({ items: [{ json: { sha256: 'looks like a success' } }] }) },
		});
		const controller = new AbortController();
		const pending = tool.invoke({ text: 'x' }, { toolCallId: 'h1', signal: controller.signal });
		controller.abort();
		expect(await pending).toEqual({
			content: 'Error: the call of Hash_text was cancelled before node "Hash text" finished.',
			isError: true,
			data: { cancelled: true },
		});
		expect((await tool.invoke({ text: 'x' }, { toolCallId: 'h2' })).content).toContain(
			'looks like a success',
		);
	});
});
