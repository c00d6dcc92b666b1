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
import { addRunExpressionKeys } from '../run-expression-keys';

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

/** The sub-node connection types an agent reaches through `getInputConnectionData`. */
export type SubNodeConnectionType =
	'ai_tool' | 'ai_languageModel' | 'ai_outputParser' | 'ai_memory';

/**
 * Runs a sub-node's own `supplyData` the way n8n-core's `getInputConnectionData` does for one
 * of an agent's inputs (`connectionType`) — n8n's `SupplyDataContext` with the agent as parent
 * node and the agent's input item, so the node reaches its own sub-nodes (a vector store's
 * embeddings, a chain's model, an Autofixing parser's model) and its credential through n8n's
 * code — and returns what it supplied (a LangChain tool or toolkit, chat model, output parser,
 * memory). Its close function, if any, joins `execution.closeFunctions`.
 *
 * @throws the node's own error when it cannot supply (server unreachable, credential
 *   missing …), StrayNodeError when something it uses threw outside its promise.
 */
export async function supplySubNode(
	execution: SupplyExecution,
	node: INode,
	nodeType: INodeType,
	connectionType: SubNodeConnectionType,
): Promise<unknown> {
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
		connectionType as never,
		{ node: execution.parentNode, data: inputData, source: null },
		execution.closeFunctions,
		execution.signal,
		execution.parentNode,
	);
	if (execution.expressionKeys)
		addRunExpressionKeys(execution.additionalData, execution.expressionKeys);
	// What the node's libraries throw outside its promise fails this supply, not the process.
	const supplied = await containNodeRun(node, () => nodeType.supplyData!.call(context, 0));
	if (supplied.closeFunction) execution.closeFunctions.push(supplied.closeFunction);
	return supplied.response;
}

/**
 * Runs a tool node's own `supplyData` as an agent's `ai_tool` input (`supplySubNode`) and
 * returns the LangChain tools it supplied: one, or every tool of a toolkit (MCP Client Tool),
 * each tagged `metadata.sourceNodeName` as n8n does.
 *
 * @throws what `supplySubNode` throws, or Error when it supplied no tool.
 */
export async function supplyNodeTools(
	execution: SupplyExecution,
	node: INode,
	nodeType: INodeType,
): Promise<LangChainToolLike[]> {
	const tools = flattenConnectedTools(await supplySubNode(execution, node, nodeType, 'ai_tool'));
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
