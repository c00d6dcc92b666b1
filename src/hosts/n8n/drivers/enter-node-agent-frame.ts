import type { IExecuteFunctions } from 'n8n-workflow';
import { enterAgentFrame, type AgentFrame } from '../../../agent/modes/nested/agent-frame';
import { readMaxDepth } from '../../../node-settings/read-mode-settings';

/**
 * Enters one item's agent run of an AgentOrchestrator node into the chain of nested
 * agents: named by the node, identified by workflow id + node name, with the node's
 * "Max Depth" (nested mode) and the execution's cancel signal. Lines of nested agents go
 * to `sink` (this run's debug log).
 *
 * @throws {AgentNestingError} when the depth limit is exceeded or the agent already runs
 * further up the chain.
 */
export function enterNodeAgentFrame(
	context: IExecuteFunctions,
	itemIndex: number,
	sink: (line: string) => void,
): AgentFrame {
	const node = context.getNode();
	const workflowId =
		typeof context.getWorkflow === 'function' ? (context.getWorkflow()?.id ?? '') : '';
	const mode = context.getNodeParameter('mode', itemIndex, 'full') as string;
	const maxDepth =
		mode === 'nested'
			? readMaxDepth((name, fallback) => context.getNodeParameter(name, itemIndex, fallback))
			: undefined;
	return enterAgentFrame({
		name: node.name,
		key: `${workflowId}/${node.name}`,
		maxDepth,
		signal: context.getExecutionCancelSignal?.(),
		sink,
	});
}
