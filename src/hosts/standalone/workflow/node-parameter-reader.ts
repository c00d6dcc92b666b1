import {
	type IDataObject,
	type INode,
	type INodeType,
	type INodeTypes,
	type NodeParameterValueType,
} from 'n8n-workflow';
import type { NodeReferences } from '../node-references';
import { oneNodeWorkflow } from '../one-node-workflow';

/** Reads one node's parameters the way `getNodeParameter` does in n8n: defaults applied, expressions resolved. */
export interface NodeParameterReader {
	readonly node: INode;
	/** The parameter's value with its expressions resolved against the input item; `fallback` when it is not set. */
	get(name: string, fallback?: unknown): unknown;
}

/**
 * Builds a reader over a copy of `node`. With `nodeType`, the node's description fills in
 * the defaults n8n leaves out of exported workflows (a parameter at its default is not
 * written), as n8n's `Workflow` does when it loads a workflow. Expressions see `item` as
 * `$json` (the CLI hands `{ chatInput }`, the shape of n8n's Chat Trigger), `$now`, `$today`
 * and the workflow timezone; other nodes' data only with `references` (their pinned output,
 * `$('Name')`), for the run of agent `references.agentName`.
 *
 * @throws ExpressionError from n8n-workflow (on `get`) when an expression is invalid.
 * @throws {UnresolvedNodeReferenceError} (on `get`) when an expression reads a node without output.
 */
export function createNodeParameterReader(
	node: INode,
	options: {
		item: IDataObject;
		nodeType?: INodeType;
		timezone?: string;
		references?: { nodeReferences: NodeReferences; agentName: string };
	},
): NodeParameterReader {
	const copy = structuredClone(node);
	const nodeTypes: INodeTypes = {
		getByName: (type) => lookup(type, options.nodeType, copy) as INodeType,
		getByNameAndVersion: (type) => lookup(type, options.nodeType, copy) as INodeType,
		getKnownTypes: () => ({}),
	};
	// The Workflow constructor applies the description's defaults to the copy's parameters.
	const { workflow } = oneNodeWorkflow(copy, {
		workflow: { settings: { timezone: options.timezone } },
		nodeTypes,
	});
	const input = [{ json: options.item }];
	return {
		node: copy,
		get(name, fallback) {
			const value = Object.hasOwn(copy.parameters, name) ? copy.parameters[name] : undefined;
			if (value === undefined) return fallback;
			const { references } = options;
			const evaluate = (): unknown =>
				workflow.expression.getParameterValue(
					value as NodeParameterValueType,
					null,
					0,
					0,
					copy.name,
					input,
					'manual',
					references?.nodeReferences.keys ?? {},
				);
			if (!references) return evaluate();
			return references.nodeReferences.resolve(evaluate, {
				agentName: references.agentName,
				node: copy.name,
				parameter: name,
				value,
			});
		},
	};
}

// Only the node being read has a type here; n8n's Workflow skips nodes whose type is unknown.
function lookup(type: string, nodeType: INodeType | undefined, node: INode): INodeType | undefined {
	return nodeType && type === node.type ? nodeType : undefined;
}
