/**
 * The workflows and runs of the memory tests: an n8n AI Agent with a Calculator tool and a
 * memory sub-node on its Memory input, run with `runWorkflowAgent` against a fake model.
 */
import type { INode } from 'n8n-workflow';
import {
	runWorkflowAgent,
	type RunWorkflowAgentOptions,
} from '../../../../src/hosts/standalone/run-workflow-agent';
import type { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import type { WorkflowExport } from '../../../../src/hosts/standalone/workflow-file';
import { textReply, toolCallReply, type FakeRequest } from '../../../support/fake-chat-server';
import { agentWorkflow } from '../sub-nodes/sub-node-workflows';
import { langChainNode } from '../sub-nodes/sub-node-workflows';

let workflowCount = 0;

/** An n8n AI Agent with a Calculator tool and `memory` on its Memory input; a new workflow id each. */
export function memoryWorkflow(memory: INode): WorkflowExport {
	workflowCount += 1;
	return {
		...agentWorkflow(
			`Memory ${workflowCount}`,
			[langChainNode('Calculator', 'toolCalculator', 1)],
			[memory],
			[{ from: memory.name, to: 'AI Agent', type: 'ai_memory' }],
		),
		id: `wf-memory-${workflowCount}-${Date.now()}`,
	};
}

/** Runs `workflow`'s agent on `host` against the fake model at `baseUrl`. */
export function memoryRunner(host: () => StandaloneHost) {
	return (
		workflow: WorkflowExport,
		baseUrl: string,
		prompt: string,
		options: Pick<RunWorkflowAgentOptions, 'sessionId' | 'conversationStore'> = {},
	) =>
		runWorkflowAgent(workflow, {
			prompt,
			host: host(),
			baseUrl,
			apiKey: 'sk-memory-test-key',
			model: 'fake/memory',
			env: {},
			...options,
		});
}

/**
 * The fake model: a user message starting "compute" gets three parallel Calculator calls
 * (`2+3`, `4*5`, `10-1`, ids `c1-N` … of request N), anything else `answer N`.
 */
export function parallelCalls(request: FakeRequest) {
	const last = request.body.messages.at(-1);
	if (last.role === 'user' && String(last.content).startsWith('compute'))
		return toolCallReply([
			{ id: `c1-${request.index}`, name: 'Calculator', arguments: { input: '2+3' } },
			{ id: `c2-${request.index}`, name: 'Calculator', arguments: { input: '4*5' } },
			{ id: `c3-${request.index}`, name: 'Calculator', arguments: { input: '10-1' } },
		]);
	return textReply(`answer ${request.index}`);
}
