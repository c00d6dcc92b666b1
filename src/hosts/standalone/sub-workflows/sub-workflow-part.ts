import type { IConnections, INode } from 'n8n-workflow';
import { SubWorkflowError } from '../../../errors/sub-workflow-error';
import type { WorkflowExport } from '../workflow-file';
import { EXECUTE_WORKFLOW_TRIGGER } from './resolve-sub-workflow';

/** Where n8n starts a sub-workflow when it has no Execute Workflow Trigger (n8n's STARTING_NODES). */
const FALLBACK_STARTS = [
	'@n8n/n8n-nodes-langchain.manualChatTrigger',
	'n8n-nodes-base.manualTrigger',
];

/**
 * The node a sub-workflow starts from, by n8n's rule: its first Execute Workflow Trigger,
 * else a Manual (Chat) Trigger.
 * @throws SubWorkflowError (SUB_WORKFLOW_NO_TRIGGER) with n8n's message when there is none.
 */
export function findSubWorkflowStart(workflow: WorkflowExport, workflowName: string): INode {
	const start =
		workflow.nodes.find((node) => node.type === EXECUTE_WORKFLOW_TRIGGER) ??
		workflow.nodes.find((node) => FALLBACK_STARTS.includes(node.type));
	if (start) return start;
	throw new SubWorkflowError(
		'no-trigger',
		`Sub-workflow "${workflowName}": Missing node to start execution. Please make sure the workflow you're calling contains an Execute Workflow Trigger node.`,
		{ workflowName },
	);
}

/**
 * The part of a workflow a run from `start` can touch: the nodes reached from it along `main`
 * connections, and the sub-nodes (models, tools, memories …) connected to those, recursively.
 * A template that calls itself (`{{ $workflow.id }}`) also holds its agent and chat trigger,
 * whose packages the sub-workflow does not need: n8n's `Workflow` wants a type for every node.
 */
export function subWorkflowPart(workflow: WorkflowExport, start: INode): WorkflowExport {
	const kept = new Set<string>([start.name]);
	const queue = [start.name];
	const feeding = feedersByTarget(workflow.connections);
	while (queue.length > 0) {
		const name = queue.shift()!;
		const next = [
			...(workflow.connections[name]?.main ?? []).flatMap((outputs) =>
				(outputs ?? []).map((connection) => connection.node),
			),
			...(feeding.get(name) ?? []),
		];
		for (const node of next) {
			if (kept.has(node)) continue;
			kept.add(node);
			queue.push(node);
		}
	}
	// Only connections between kept nodes: a model may also feed an agent outside the part.
	const connections: IConnections = {};
	for (const [source, byType] of Object.entries(workflow.connections)) {
		if (!kept.has(source)) continue;
		connections[source] = Object.fromEntries(
			Object.entries(byType).map(([type, outputs]) => [
				type,
				(outputs ?? []).map((output) =>
					output === null ? null : output.filter((connection) => kept.has(connection.node)),
				),
			]),
		);
	}
	return { ...workflow, nodes: workflow.nodes.filter((node) => kept.has(node.name)), connections };
}

/** For each node, the nodes connected to it through a non-`main` input (its sub-nodes). */
function feedersByTarget(connections: IConnections): Map<string, string[]> {
	const feeders = new Map<string, string[]>();
	for (const [source, byType] of Object.entries(connections)) {
		for (const [type, outputs] of Object.entries(byType)) {
			if (type === 'main') continue;
			for (const connection of (outputs ?? []).flat()) {
				if (!connection) continue;
				feeders.set(connection.node, [...(feeders.get(connection.node) ?? []), source]);
			}
		}
	}
	return feeders;
}
