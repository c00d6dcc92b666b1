import type { INode, INodeType } from 'n8n-workflow';
import type { UnavailableTool } from '../../../errors/unavailable-tools-error';
import { isNestedAgentNode } from '../../../tools/nested-agent-tool-spec';
import type { StandaloneHost } from '../standalone-host';
import { isReviewGateNode } from '../review-gate';
import { findToolNodes, type WorkflowExport } from '../workflow-file';
import { n8nAgentToolNodeType } from '../sub-nodes/n8n-agent-tool';
import { findUnavailableNodes } from '../node-availability';
import { subNodeTree } from '../sub-nodes/sub-node-tree';

/** How a node on an agent's `ai_tool` input becomes a tool in the standalone host. */
export type ToolNodeKind =
	/** A nested Agent Orchestrator: runs its own loop (its type need not be loaded). */
	| { kind: 'nested-orchestrator' }
	/** n8n's AI Agent Tool: runs on this package's loop with its model and tools. */
	| { kind: 'n8n-agent-tool' }
	/** A tool sub-node (n8n's LangChain tools, community tool sub-nodes): n8n's `supplyData` gives the tool. */
	| { kind: 'supplied'; nodeType: INodeType; subNodes: INode[] }
	/** A node that executes (n8n-nodes-base `…Tool` nodes): its `$fromAI` markers are the schema. */
	| { kind: 'node-as-tool' };

/** Thrown by {@link toolNodeKind} for a tool node that cannot be served. */
export class UnavailableToolProblem extends Error {
	constructor(readonly tool: Omit<UnavailableTool, 'agentName'>) {
		super(tool.message);
		this.name = 'UnavailableToolProblem';
	}
}

/**
 * How the standalone host serves the tool node `node` of an agent — after checking that every
 * node it needs is installed (the node and its sub-nodes; for an agent used as a tool, the
 * nodes of its own tools) and that its kind runs outside n8n.
 *
 * @throws {UnavailableToolProblem} naming the node, its type and why: a package not installed,
 *   a type not in its package, Python code, a node that neither executes nor supplies a tool.
 */
export function toolNodeKind(
	node: INode,
	workflow: WorkflowExport,
	host: StandaloneHost,
): ToolNodeKind {
	const unavailable = (reason: UnavailableTool['reason'], why: string): UnavailableToolProblem =>
		new UnavailableToolProblem({
			nodeName: node.name,
			nodeType: node.type,
			reason,
			message: `"${node.name}" (${node.type}): ${why}`,
		});
	const agentKind = isNestedAgentNode(node)
		? ('nested-orchestrator' as const)
		: node.type === n8nAgentToolNodeType
			? ('n8n-agent-tool' as const)
			: undefined;
	// An agent used as a tool runs here with its own tools: those must be installed; its model
	// sub-node is read, never loaded.
	const needed = agentKind ? agentToolTrees(workflow, node.name) : subNodeTree(workflow, node.name);
	const missing = findUnavailableNodes(node, needed, host.nodeTypes);
	if (missing) throw new UnavailableToolProblem(missing);
	if (agentKind) return { kind: agentKind };
	const language = node.parameters.language;
	if (typeof language === 'string' && language.startsWith('python'))
		throw unavailable(
			'NODE_UNSUPPORTED',
			"its code is Python, which runs in n8n's Python task runner; that runner ships only with n8n's Docker image, so the standalone host cannot run it. Use JavaScript.",
		);
	let nodeType: INodeType;
	try {
		nodeType = host.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	} catch (error) {
		throw unavailable(
			'NODE_TYPE_NOT_FOUND',
			`its node type could not be loaded: ${(error as Error).message}`,
		);
	}
	if (nodeType.supplyData) return { kind: 'supplied', nodeType, subNodes: needed };
	if (nodeType.execute || nodeType.description.requestDefaults) return { kind: 'node-as-tool' };
	throw unavailable(
		'NODE_UNSUPPORTED',
		'it neither runs as a node nor supplies a tool, so it cannot be a tool.',
	);
}

/** The nodes the tools of an agent used as a tool need, through every level of nesting. */
function agentToolTrees(workflow: WorkflowExport, agentName: string): INode[] {
	return findToolNodes(workflow, agentName).flatMap((tool) =>
		// An agent's tools, or the tools behind a human-review gate: the same rule, one level down.
		isNestedAgentNode(tool) || tool.type === n8nAgentToolNodeType || isReviewGateNode(tool)
			? agentToolTrees(workflow, tool.name)
			: subNodeTree(workflow, tool.name),
	);
}
