import type {
	CloseFunction,
	IDataObject,
	INode,
	INodeType,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import {
	flattenConnectedTools,
	isLangChainToolLike,
	type LangChainToolLike,
} from '../../../tools/agent-tool-from-langchain';
import { n8nCoreRuntime } from '../n8n-core-runtime';
import { containNodeRun } from '../node-run-containment';

/** What one supply of a tool node runs in: the n8n execution its agent would be part of. */
export interface SupplyExecution {
	/** The n8n `Workflow` holding the tool node and its sub-nodes. */
	workflow: Workflow;
	additionalData: IWorkflowExecuteAdditionalData;
	runExecutionData: IRunExecutionData;
	/** The agent node the tool is connected to (n8n's `parentNode`). */
	parentNode: INode;
	/** The agent's input item json (`$json` in the tool's expressions), e.g. `{ chatInput }`. */
	input: IDataObject;
	/** Added to the tool node's expression variables: `$` over other nodes' pinned output (see `nodeReferences`). */
	expressionKeys?: IDataObject;
	/** n8n pushes each sub-node's close function (an MCP client, a database pool) here. */
	closeFunctions: CloseFunction[];
	/** Aborted when the tools are closed: what n8n's execution cancel would do. */
	signal: AbortSignal;
}

/**
 * Runs a tool node's own `supplyData` the way n8n-core's `getInputConnectionData` does for an
 * agent's `ai_tool` input — n8n's `SupplyDataContext` with the agent as parent node and the
 * agent's input item, so the node reaches its own sub-nodes (a vector store's embeddings, a
 * chain's model) through n8n's code — and returns the LangChain tools it supplied: one, or
 * every tool of a toolkit (MCP Client Tool), each tagged `metadata.sourceNodeName` as n8n does.
 *
 * @throws the node's own error when it cannot supply its tool (server unreachable, credential
 *   missing …), StrayNodeError when something it uses threw outside its promise, or Error when
 *   it supplied no tool.
 */
export async function supplyNodeTools(
	execution: SupplyExecution,
	node: INode,
	nodeType: INodeType,
): Promise<LangChainToolLike[]> {
	const item = { json: execution.input };
	const inputData = { main: [[item]] };
	const context = new (n8nCoreRuntime().SupplyDataContext)(
		execution.workflow,
		node,
		execution.additionalData,
		'manual',
		execution.runExecutionData,
		0,
		[item],
		inputData,
		'ai_tool',
		{ node: execution.parentNode, data: inputData, source: null },
		execution.closeFunctions,
		execution.signal,
		execution.parentNode,
	);
	if (execution.expressionKeys) addExpressionKeys(context, execution.expressionKeys);
	// What the node's libraries throw outside its promise fails this supply, not the process.
	const supplied = await containNodeRun(node, () => nodeType.supplyData!.call(context, 0));
	if (supplied.closeFunction) execution.closeFunctions.push(supplied.closeFunction);
	const tools = flattenConnectedTools(supplied.response);
	if (tools.length === 0 || !tools.every(isLangChainToolLike)) {
		throw new Error(
			`Node "${node.name}" (${node.type}) supplied ${tools.length === 0 ? 'no tool' : 'something that is not a tool'} on its ai_tool output.`,
		);
	}
	for (const tool of tools) {
		tool.metadata ??= {};
		tool.metadata.sourceNodeName = node.name;
	}
	return tools;
}

/**
 * Adds `keys` to the variables of every expression `context` evaluates — its description, its
 * parameters when the model calls it. n8n-core memoizes the context's `additionalKeys` as an own
 * property on first read; n8n's keys are read on a stand-in, so this context's own adds ours.
 */
function addExpressionKeys(context: object, keys: IDataObject): void {
	const n8nKeys = (Object.create(context) as { additionalKeys: IDataObject }).additionalKeys;
	Object.defineProperty(context, 'additionalKeys', { value: { ...n8nKeys, ...keys } });
}
