import type { CloseFunction, IConnections, IDataObject, INode, INodeType } from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';
import type { LangChainToolLike } from '../../../tools/agent-tool-from-langchain';
import { createAdditionalData } from '../additional-data';
import { partialWorkflow } from '../one-node-workflow';
import type { NodeRunGuard, StandaloneHost } from '../standalone-host';
import { subWorkflowScope } from '../sub-workflows/sub-workflow-runner';
import type { WorkflowExport } from '../workflow-file';
import {
	supplyNodeTools,
	supplySubNode,
	type SubNodeConnectionType,
	type SupplyExecution,
} from './supply-node-tools';

/**
 * One agent's tool sub-nodes supplied the way n8n supplies them in one execution of that
 * agent: one n8n `Workflow` of the tool nodes and their sub-nodes, one run data, the agent as
 * parent node and its input item as `$json`. What the nodes open (an MCP client, a database
 * pool) stays open until {@link close}, which also fires the execution's cancel signal.
 */
export class ToolSupply {
	private readonly closeFunctions: CloseFunction[] = [];
	private readonly controller = new AbortController();
	private execution?: Omit<SupplyExecution, 'additionalData'>;
	private workflowData?: ReturnType<typeof partialWorkflow>['workflowData'];

	/**
	 * @param nodes every node the supplied tools may reach: the tool nodes and their sub-nodes
	 * @param input the agent's input item json (`$json` in the tools' expressions)
	 */
	constructor(
		private readonly host: StandaloneHost,
		private readonly workflowExport: WorkflowExport,
		private readonly agentNode: INode,
		private readonly nodes: readonly INode[],
		private readonly input: IDataObject = {},
		/** Stands around each sub-workflow run the tools start (the session's guard). */
		private readonly guard?: NodeRunGuard,
		/** Added to the tool nodes' expression variables (`$` over pinned output). */
		private readonly expressionKeys?: IDataObject,
	) {}

	/**
	 * Runs `node`'s own `supplyData` (see {@link supplyNodeTools}) and returns its tools.
	 * @throws the node's own error when it cannot supply its tool.
	 */
	async supply(node: INode, nodeType: INodeType): Promise<LangChainToolLike[]> {
		const { execution, inWorkflow } = this.executionFor(node);
		return await supplyNodeTools(execution, inWorkflow, nodeType);
	}

	/**
	 * Runs `node`'s own `supplyData` as the agent's `connectionType` input (a chat model,
	 * output parser or memory sub-node; see {@link supplySubNode}) in this same execution, and
	 * returns what it supplied. `nodes` given to the constructor must hold it and its sub-nodes.
	 * @throws the node's own error when it cannot supply (its credential missing …).
	 */
	async supplyAs(
		node: INode,
		nodeType: INodeType,
		connectionType: SubNodeConnectionType,
	): Promise<unknown> {
		const { execution, inWorkflow } = this.executionFor(node);
		return await supplySubNode(execution, inWorkflow, nodeType, connectionType);
	}

	private executionFor(node: INode): { execution: SupplyExecution; inWorkflow: INode } {
		const prepared = this.prepare();
		const inWorkflow = prepared.workflow.getNode(node.name) ?? node;
		const additionalData = createAdditionalData({
			credentialsHelper: this.host.credentialsHelper,
			workflowData: this.workflowData!,
			nodeName: node.name,
			subWorkflows: subWorkflowScope(this.host, this.workflowExport, {
				guard: this.guard,
				signal: this.controller.signal,
			}),
		});
		return { execution: { ...prepared, additionalData }, inWorkflow };
	}

	/** Closes what the supplied tools opened (n8n's close functions) and cancels their execution. */
	async close(): Promise<void> {
		this.controller.abort();
		const closing = this.closeFunctions.splice(0);
		await Promise.allSettled(closing.map(async (close) => await close()));
	}

	private prepare(): Omit<SupplyExecution, 'additionalData'> {
		if (this.execution) return this.execution;
		const names = new Set(this.nodes.map((node) => node.name));
		const nodes = this.nodes.map((node) => structuredClone(node));
		const { workflow, workflowData } = partialWorkflow(
			nodes,
			connectionsAmong(this.workflowExport.connections, names),
			{ workflow: this.workflowExport, nodeTypes: this.host.nodeTypes },
		);
		this.workflowData = workflowData;
		this.execution = {
			workflow,
			runExecutionData: createRunExecutionData(),
			parentNode: this.agentNode,
			input: this.input,
			expressionKeys: this.expressionKeys,
			closeFunctions: this.closeFunctions,
			signal: this.controller.signal,
		};
		return this.execution;
	}
}

/** The connections of an export whose both ends are among `names`. */
function connectionsAmong(connections: IConnections, names: ReadonlySet<string>): IConnections {
	const kept: IConnections = {};
	for (const [source, byType] of Object.entries(connections)) {
		if (!names.has(source)) continue;
		kept[source] = Object.fromEntries(
			Object.entries(byType).map(([type, outputs]) => [
				type,
				(outputs ?? []).map((output) =>
					(output ?? []).filter((connection) => names.has(connection.node)),
				),
			]),
		);
	}
	return kept;
}
