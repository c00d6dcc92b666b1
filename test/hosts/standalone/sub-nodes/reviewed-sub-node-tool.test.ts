/**
 * A tool sub-node behind n8n's human-review gate (a `…HitlTool` node between the tools and the
 * agent) in the standalone host: n8n's Calculator is supplied as any other sub-node, and each
 * call asks the session's reviewer first — approved, it runs; declined or with nobody to ask,
 * it does not.
 */
import { describe, expect, it } from 'vitest';
import { loadWorkflowTools } from '../../../../src/hosts/standalone/load-workflow-tools';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import type { ToolReviewer } from '../../../../src/tools/tool-review';
import { agentWorkflow, langChainNode } from './sub-node-workflows';

const workflow = agentWorkflow(
	'Reviewed calculator',
	[
		{
			id: 'gate',
			name: 'Ask on Slack',
			type: 'n8n-nodes-base.slackHitlTool',
			typeVersion: 2.3,
			position: [0, 0],
			parameters: { message: '=May the agent compute {{ $tool.parameters.input }}?' },
		},
	],
	[langChainNode('Calculator', 'toolCalculator', 1)],
	[{ from: 'Calculator', to: 'Ask on Slack', type: 'ai_tool' }],
);

describe('a tool sub-node behind a human-review gate', () => {
	it('is the tool itself, asking the reviewer before each call', async () => {
		const host = await StandaloneHost.create({ env: {} });
		const asked: string[] = [];
		const approveEvenOnly: ToolReviewer = async (request) => {
			asked.push(request.message);
			return /[02468]$/.test(String(request.arguments.input))
				? { approved: true }
				: { approved: false, reason: 'odd numbers only on Fridays' };
		};
		const loaded = await loadWorkflowTools(workflow, { host, review: approveEvenOnly });
		const [calculator] = loaded.tools;
		expect(calculator).toMatchObject({
			name: 'Calculator',
			nodeType: '@n8n/n8n-nodes-langchain.toolCalculator',
		});
		expect(await calculator.invoke({ input: '6*7+2' }, { toolCallId: 'a' })).toMatchObject({
			content: '44',
			isError: false,
		});
		const declined = await calculator.invoke({ input: '2+1' }, { toolCallId: 'b' });
		expect(declined.isError).toBe(true);
		expect(declined.content).toContain('odd numbers only on Fridays');
		expect(asked).toEqual(['May the agent compute 6*7+2?', 'May the agent compute 2+1?']);
		await loaded.close();

		const unreviewed = await loadWorkflowTools(workflow, { host });
		const refused = await unreviewed.tools[0].invoke({ input: '2+2' }, { toolCallId: 'c' });
		expect(refused.isError).toBe(true);
		await unreviewed.close();
	});
});
