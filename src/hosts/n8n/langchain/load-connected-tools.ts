import type { IExecuteFunctions, NodeTypeAndVersion } from 'n8n-workflow';
import {
	flattenConnectedTools,
	isLangChainToolLike,
} from '../../../tools/agent-tool-from-langchain';

/** The part of n8n-core's execute context that lists the nodes `getInputConnectionData` reads. */
interface ConnectedNodesSource {
	/** n8n-core `NodeExecutionContext.getConnectedNodes` (public since 1.x, not in n8n-workflow's interface). */
	getConnectedNodes?: (connectionType: string) => Array<{ name: string; disabled?: boolean }>;
}

/**
 * The tools connected to the node's `ai_tool` input (toolkits flattened), each tagged with
 * the node it comes from (`metadata.sourceNodeName`), which the engine driver needs to
 * have n8n run that node.
 *
 * n8n-core tags them itself only from 2.6.2 (n8n 2.6.4; `extendResponseMetadata` in
 * `get-input-connection-data.js`). Before that, n8n's own AI Agent tags them in its helper
 * (`getConnectedTools`, @n8n/n8n-nodes-langchain `utils/helpers`): the i-th entry that
 * `getInputConnectionData('ai_tool')` returns comes from the i-th connected node. We do the
 * same with the very list n8n-core builds that answer from (`getConnectedNodes('ai_tool')`:
 * the `ai_tool` parents at depth 1, disabled ones left out — n8n's helper forgets that
 * filter), falling back to `getParentNodes` with the same filter. A tag n8n set is kept.
 * Entries that are toolkits get `isFromToolkit` (the node reads the tool name from `tool`).
 * When the lists do not line up, nothing is guessed: such tools stay untagged.
 */
export async function loadConnectedTools(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<unknown[]> {
	const supplied: unknown = await context.getInputConnectionData('ai_tool', itemIndex);
	const entries =
		supplied === undefined || supplied === null
			? []
			: Array.isArray(supplied)
				? supplied
				: [supplied];
	const nodes = connectedToolNodes(context);
	const aligned = nodes !== undefined && nodes.length === entries.length;
	return entries.flatMap((entry: unknown, index) => {
		const tools = flattenConnectedTools(entry);
		const nodeName = aligned ? nodes[index].name : undefined;
		if (nodeName === undefined) return tools;
		const fromToolkit = !isLangChainToolLike(entry);
		for (const tool of tools) {
			if (!isLangChainToolLike(tool)) continue;
			const metadata = (tool.metadata ??= {});
			if (typeof metadata.sourceNodeName === 'string') continue;
			metadata.sourceNodeName = nodeName;
			if (fromToolkit && metadata.isFromToolkit === undefined) metadata.isFromToolkit = true;
		}
		return tools;
	});
}

function connectedToolNodes(context: IExecuteFunctions): Array<{ name: string }> | undefined {
	const source = context as IExecuteFunctions & ConnectedNodesSource;
	if (typeof source.getConnectedNodes === 'function') return source.getConnectedNodes('ai_tool');
	if (typeof source.getParentNodes !== 'function') return undefined;
	const parents: NodeTypeAndVersion[] = source.getParentNodes(source.getNode().name, {
		connectionType: 'ai_tool',
		depth: 1,
	});
	return parents.filter((parent) => parent.disabled !== true);
}
