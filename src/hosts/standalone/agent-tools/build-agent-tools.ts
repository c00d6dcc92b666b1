import type { IDataObject, INode } from 'n8n-workflow';
import type { AgentTool } from '../../../tools/agent-tool';
import { NestedAgentUnavailableError } from '../../../errors/nested-agent-unavailable-error';
import { ToolBuildError, type ToolBuildProblem } from '../../../errors/tool-build-error';
import {
	UnavailableToolsError,
	type UnavailableTool,
} from '../../../errors/unavailable-tools-error';
import { createNodeAsTool } from '../../../tools/create-node-as-tool';
import { errorObservationText } from '../../../tools/tool-observation-text';
import {
	gateToolWithReview,
	type ToolReviewer,
	type ToolReviewSpec,
} from '../../../tools/tool-review';
import { nodeReferences, pinnedNodeData, type NodeReferences } from '../node-references';
import { resolveDetachedExpression } from '../resolve-detached-expression';
import { isReviewGateNode, reviewGateSpec } from '../review-gate';
import type { NodeRunGuard, StandaloneHost } from '../standalone-host';
import { findToolNodes, type WorkflowExport } from '../workflow-file';
import { createN8nAgentTool } from '../sub-nodes/n8n-agent-tool';
import { suppliedAgentTool } from '../sub-nodes/supplied-agent-tool';
import { ToolSupply } from '../sub-nodes/tool-supply';
import { nestedOrchestratorTool } from './nested-orchestrator-tool';
import { toolNodeKind, UnavailableToolProblem, type ToolNodeKind } from './tool-node-kind';
import type { WorkflowNestedAgentRunner } from './workflow-nested-agent-runner';

/** Options of {@link buildAgentTools}. */
export interface BuildAgentToolsOptions {
	/** `throw` (default): `$fromAI` problems fail the build with a ToolBuildError; `collect`: listed in `problems`. */
	onBuildError?: 'throw' | 'collect';
	/** Runs nested agents (Agent Orchestrators in nested mode, n8n's AI Agent Tools) when called. */
	runNestedAgent?: WorkflowNestedAgentRunner;
	/** Stands around every tool call that runs a node (e.g. the private-network guard). */
	guard?: NodeRunGuard;
	/**
	 * Serve the tools that can be served and list the others in `unavailable` (default false:
	 * any unavailable tool fails the build with an UnavailableToolsError naming all of them).
	 */
	skipUnavailable?: boolean;
	/** The agent's input item json, `$json` in the expressions of its tool sub-nodes (e.g. `{ chatInput }`). */
	input?: IDataObject;
	/**
	 * Other nodes' pinned output, for `$('Name')` in the tools' expressions. Default: the
	 * export's `pinData` with {@link pins} over it.
	 */
	nodeReferences?: NodeReferences;
	/** Other nodes' output by node name (`--pin`), when `nodeReferences` is not given. */
	pins?: Record<string, unknown>;
	/**
	 * Approves calls of tools behind an n8n human-review gate (a `…HitlTool` node between the
	 * tools and the agent); without it those calls are refused (see `gateToolWithReview`).
	 */
	review?: ToolReviewer;
}

/** The tools of one agent node, and what could not become one. */
export interface AgentToolSet {
	/** In the workflow's node order. */
	tools: AgentTool[];
	/** `$fromAI` problems of nodes left out (with `onBuildError: 'collect'`). */
	problems: ToolBuildProblem[];
	/** Tool nodes left out because they cannot be served (with `skipUnavailable`). */
	unavailable: UnavailableTool[];
	/** Closes what the tool sub-nodes opened (MCP clients, database pools); call it when done. */
	close(): Promise<void>;
}

/**
 * The tools of one agent node of a loaded workflow, one per node on its `ai_tool` input (a
 * toolkit node gives several): n8n's tool sub-nodes through their own `supplyData`
 * (`ToolSupply`: the schema and the call are n8n's), nodes that execute through the `$fromAI`
 * bridge (`createNodeAsTool`), nested Agent Orchestrators and n8n's AI Agent Tools as agents
 * running on this package's loop. Names are unique: a supplied tool named like an earlier one
 * is unavailable, as n8n's agent refuses it. A human-review gate (n8n's `…HitlTool` node) is not
 * a tool itself: the tools on its own `ai_tool` input are, each asking `review` before it runs.
 *
 * @throws {UnavailableToolsError} naming every tool that cannot be served (missing package with
 *   the command that installs it, unsupported kind, failed supply), unless `skipUnavailable`.
 * @throws {ToolBuildError} on `$fromAI` problems (unless `onBuildError: 'collect'`).
 */
export async function buildAgentTools(
	workflow: WorkflowExport,
	agentNode: INode,
	host: StandaloneHost,
	options: BuildAgentToolsOptions = {},
): Promise<AgentToolSet> {
	const references =
		options.nodeReferences ?? nodeReferences(workflow, pinnedNodeData(workflow, options.pins));
	const problems: ToolBuildProblem[] = [];
	const unavailable: UnavailableTool[] = [];
	const kinds = new Map<INode, ToolNodeKind>();
	// A human-review gate (n8n's `…HitlTool` node) is not a tool itself: the tools on its own
	// `ai_tool` input are, each asking `review` before it runs.
	const gates = new Map<INode, ToolReviewSpec>();
	const toolNodes = findToolNodes(workflow, agentNode.name).flatMap((node) => {
		if (!isReviewGateNode(node)) return [node];
		const gate = reviewGateSpec(workflow, node);
		const gated = findToolNodes(workflow, node.name);
		for (const each of gated) gates.set(each, gate);
		return gated;
	});
	for (const node of toolNodes) {
		try {
			kinds.set(node, toolNodeKind(node, workflow, host));
		} catch (error) {
			if (!(error instanceof UnavailableToolProblem)) throw error;
			unavailable.push({ agentName: agentNode.name, ...error.tool });
		}
	}
	const supply = new ToolSupply(
		host,
		workflow,
		agentNode,
		[...kinds.values()].flatMap((kind) => (kind.kind === 'supplied' ? kind.subNodes : [])),
		options.input,
		options.guard,
		references.keys,
	);
	const takenNames = new Set<string>();
	const built = new Map<INode, AgentTool[]>();
	const reviewed = (node: INode, tool: AgentTool): AgentTool => {
		const gate = gates.get(node);
		return gate ? gateToolWithReview(tool, gate, options.review) : tool;
	};
	// Supplied tools first: n8n fixes their names, the bridge's names give way to them.
	for (const [node, kind] of kinds) {
		if (kind.kind !== 'supplied') continue;
		try {
			const tools = (await supply.supply(node, kind.nodeType)).map((tool) =>
				reviewed(node, suppliedAgentTool(tool, { node, workflow, guard: options.guard })),
			);
			const taken = tools.find((tool) => takenNames.has(tool.name));
			if (taken) {
				unavailable.push(duplicateName(agentNode, node, taken.name));
				continue;
			}
			for (const tool of tools) takenNames.add(tool.name);
			built.set(node, tools);
		} catch (error) {
			// A reference to a node without output says which node and which --pin fixes it.
			const site = { agentName: agentNode.name, node: node.name, parameter: 'parameters' };
			const explained = references.explain(error, { ...site, value: node.parameters });
			unavailable.push({
				agentName: agentNode.name,
				nodeName: node.name,
				nodeType: node.type,
				reason: 'SUPPLY_FAILED',
				message: `"${node.name}" (${node.type}): n8n's node could not supply its tool: ${explained?.message ?? errorObservationText(error).replace(/^Error: /, '')}`,
			});
		}
	}
	// The reader's output boundary (the session's, the loop's) redacts and caps each observation once.
	const runner = host.runnerFor(workflow, {
		guard: options.guard,
		redact: false,
		// `$('Name')` in the node's parameters reads pinned output when the model calls it too.
		expressionKeys: references.keys,
	});
	for (const [node, kind] of kinds) {
		if (kind.kind === 'supplied') continue;
		// `$('Name')` reads pinned output; a node without any is an UnresolvedNodeReferenceError.
		const site = {
			agentName: agentNode.name,
			node: node.name,
			parameter: 'toolDescription',
			value: node.parameters.toolDescription,
		};
		const withReferences = (evaluate: (keys: IDataObject) => unknown): unknown =>
			references.resolve(() => evaluate(references.keys), site);
		const resolveExpression = (expression: string): unknown =>
			withReferences((keys) => host.resolveExpression(workflow, node, expression, keys));
		const detached = (expression: string): unknown =>
			withReferences((keys) => resolveDetachedExpression(workflow, node, expression, keys));
		try {
			let tool: AgentTool;
			if (kind.kind === 'nested-orchestrator')
				tool = nestedOrchestratorTool(node, detached, options.runNestedAgent);
			else if (kind.kind === 'n8n-agent-tool')
				tool = createN8nAgentTool({
					node,
					resolveExpression: detached,
					run: (filled, { signal }) => runNested(options.runNestedAgent, filled, signal),
				});
			else
				tool = createNodeAsTool({
					node,
					nodeTypeDescription: host.describe(node),
					runner,
					takenNames,
					resolveExpression,
					maxOutputLength: Infinity,
				});
			takenNames.add(tool.name);
			built.set(node, [reviewed(node, tool)]);
		} catch (error) {
			if (!(error instanceof ToolBuildError)) throw error;
			problems.push(...error.problems);
		}
	}
	const close = (): Promise<void> => supply.close();
	if (unavailable.length > 0 && !options.skipUnavailable) {
		await close();
		throw new UnavailableToolsError(unavailable, host.installCommandFor(unavailable));
	}
	if (problems.length > 0 && options.onBuildError !== 'collect') {
		await close();
		throw new ToolBuildError(problems);
	}
	const tools = toolNodes.flatMap((node) => built.get(node) ?? []);
	return { tools, problems, unavailable, close };
}

function runNested(
	run: WorkflowNestedAgentRunner | undefined,
	node: INode,
	signal: AbortSignal | undefined,
): Promise<string> {
	if (!run) return Promise.reject(new NestedAgentUnavailableError(node.name));
	return run(node, undefined, { args: {}, signal });
}

function duplicateName(agentNode: INode, node: INode, name: string): UnavailableTool {
	return {
		agentName: agentNode.name,
		nodeName: node.name,
		nodeType: node.type,
		reason: 'NODE_UNSUPPORTED',
		message: `"${node.name}" (${node.type}): its tool is named "${name}" like another tool of this agent; n8n's agent refuses two tools of one name too. Connect only one of them.`,
	};
}
