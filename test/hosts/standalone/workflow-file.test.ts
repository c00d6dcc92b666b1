import { describe, expect, it } from 'vitest';
import { WorkflowFileError } from '../../../src/errors/workflow-file-error';
import { parseWorkflow } from '../../../src/hosts/standalone/workflow-file';

const orchestrator = (name: string) => ({
	name,
	type: 'n8n-nodes-toolbridge.agentOrchestrator',
	parameters: {},
});
const toolOf = (agent: string) => ({ ai_tool: [[{ node: agent, type: 'ai_tool', index: 0 }]] });

describe('parseWorkflow: ai_tool loops are named as a path', () => {
	it.each([
		[
			'an agent wired to its own ai_tool input',
			{ nodes: [orchestrator('Agent')], connections: { Agent: toolOf('Agent') } },
			'Agent › Agent',
		],
		[
			'an agent ↔ tool loop',
			{
				nodes: [orchestrator('Agent'), orchestrator('Hash')],
				connections: { Hash: toolOf('Agent'), Agent: toolOf('Hash') },
			},
			'Agent › Hash › Agent',
		],
		[
			'a loop through three agents',
			{
				nodes: [orchestrator('A'), orchestrator('B'), orchestrator('C')],
				connections: { B: toolOf('A'), C: toolOf('B'), A: toolOf('C') },
			},
			'A › B › C › A',
		],
	])('%s', (_what, workflow, path) => {
		expect(() => parseWorkflow(workflow)).toThrow(WorkflowFileError);
		expect(() => parseWorkflow(workflow)).toThrow(`form a loop: ${path}.`);
	});

	it('a tool shared by two agents is no loop', () => {
		const workflow = {
			nodes: [
				orchestrator('A'),
				orchestrator('B'),
				{ name: 'Hash', type: 'n8n-nodes-base.crypto', parameters: {} },
			],
			connections: {
				Hash: {
					ai_tool: [
						[
							{ node: 'A', type: 'ai_tool', index: 0 },
							{ node: 'B', type: 'ai_tool', index: 0 },
						],
					],
				},
			},
		};
		expect(() => parseWorkflow(workflow)).not.toThrow();
	});
});
