import type { INode } from 'n8n-workflow';
import type { WorkflowExport } from '../workflow-file';

/**
 * The enabled nodes that feed `nodeName` through a non-`main` connection (its sub-nodes: a
 * vector store's embeddings, a Vector Store Tool's store and model, an agent tool's model and
 * tools), with theirs in turn — what n8n's `getInputConnectionData` may reach when the node
 * supplies its tool. The node itself comes first; each node once, in breadth-first order.
 */
export function subNodeTree(workflow: WorkflowExport, nodeName: string): INode[] {
	const byName = new Map(workflow.nodes.map((node) => [node.name, node]));
	const feeders = new Map<string, string[]>();
	for (const [source, byType] of Object.entries(workflow.connections)) {
		for (const [type, outputs] of Object.entries(byType)) {
			if (type === 'main') continue;
			for (const connection of (outputs ?? []).flat()) {
				if (!connection) continue;
				feeders.set(connection.node, [...(feeders.get(connection.node) ?? []), source]);
			}
		}
	}
	const root = byName.get(nodeName);
	if (!root) return [];
	const seen = new Set([nodeName]);
	const tree: INode[] = [root];
	for (let index = 0; index < tree.length; index++) {
		for (const source of feeders.get(tree[index].name) ?? []) {
			const node = byName.get(source);
			if (!node || node.disabled === true || seen.has(source)) continue;
			seen.add(source);
			tree.push(node);
		}
	}
	return tree;
}

/**
 * The first enabled node connected to `agentName`'s `connectionType` input (`ai_languageModel`,
 * `ai_memory`, `ai_outputParser` …) — on input `index` when given (n8n's AI Agent: 0 the chat
 * model, 1 its fallback) — as n8n's `getInputConnectionData` finds it.
 */
export function findSubNode(
	workflow: WorkflowExport,
	agentName: string,
	connectionType: string,
	index?: number,
): INode | undefined {
	for (const [source, byType] of Object.entries(workflow.connections)) {
		const targets = (byType[connectionType] ?? []).flatMap((outputs) => outputs ?? []);
		const feeds = targets.some(
			(connection) =>
				connection.node === agentName && (index === undefined || (connection.index ?? 0) === index),
		);
		if (!feeds) continue;
		const node = workflow.nodes.find((candidate) => candidate.name === source);
		if (node && node.disabled !== true) return node;
	}
	return undefined;
}
