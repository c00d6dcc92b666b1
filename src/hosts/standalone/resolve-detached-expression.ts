import type { IDataObject, INode, INodeTypes } from 'n8n-workflow';
import { oneNodeWorkflow } from './one-node-workflow';
import type { WorkflowExport } from './workflow-file';

// No node types: n8n's Workflow skips defaults for a node whose type is unknown, which is
// all an expression over literal text needs.
const noNodeTypes: INodeTypes = {
	getByName: () => undefined as never,
	getByNameAndVersion: () => undefined as never,
	getKnownTypes: () => ({}),
};

/**
 * Evaluates an n8n expression (`=…`) of `node` without loading the node's type — for nodes
 * the host does not run itself, such as a nested AgentOrchestrator whose package need not be
 * installed where the workflow is loaded. `$now`, `$today` and the workflow timezone work;
 * there is no input item and no other node's data. `additionalKeys` adds variables (`$tool`).
 *
 * @throws ExpressionError from n8n-workflow when the expression is invalid.
 */
export function resolveDetachedExpression(
	workflowExport: WorkflowExport,
	node: INode,
	expression: string,
	additionalKeys: IDataObject = {},
): unknown {
	const { workflow } = oneNodeWorkflow(structuredClone(node), {
		workflow: workflowExport,
		nodeTypes: noNodeTypes,
	});
	return workflow.expression.getSimpleParameterValue(
		workflow.getNode(node.name)!,
		expression,
		'manual',
		additionalKeys,
		undefined,
		'',
	);
}
