import type { DynamicStructuredTool } from '@langchain/core/tools';
import type { INode } from 'n8n-workflow';
import type { CompiledTool } from '../../tools/agent-tool';
import { ToolBuildError, type ToolBuildProblem } from '../../errors/tool-build-error';
import { WorkflowFileError } from '../../errors/workflow-file-error';
import { argumentChecks } from '../../errors/invalid-argument-error';
import { createNestedAgentTool } from '../../tools/create-nested-agent-tool';
import { isNestedAgentNode, nestedAgentToolSpec } from '../../tools/nested-agent-tool-spec';
import { NestedAgentUnavailableError } from '../../errors/nested-agent-unavailable-error';
import { toolDescriptionError } from '../../tools/compile-tool-schema';
import { createNodeAsTool } from '../../tools/create-node-as-tool';
import { toLangChainTool } from '../../tools/langchain-tool-view';
import { resolveDetachedExpression } from './resolve-detached-expression';
import { isReviewGateNode, reviewGateSpec } from './review-gate';
import { gateToolWithReview, type ToolReviewer } from '../../tools/tool-review';
import { StandaloneHost, type NodeRunGuard, type StandaloneHostOptions } from './standalone-host';
import {
	findToolNodes,
	parseWorkflow,
	readWorkflowFile,
	selectAgent,
	type WorkflowExport,
} from './workflow-file';

/** Options of {@link loadWorkflowTools}. */
export interface LoadWorkflowToolsOptions extends StandaloneHostOptions {
	/** The agent node's name when several nodes have tools connected. */
	agent?: string;
	/** Reuse a host (loaded packages and credentials) across workflows. */
	host?: StandaloneHost;
	/**
	 * `throw` (default): one malformed `$fromAI` anywhere fails the load with a
	 * ToolBuildError listing every problem. `collect`: tools that build are returned and the
	 * problems listed in `problems` (what `toolbridge tools` shows).
	 */
	onBuildError?: 'throw' | 'collect';
	/** Cap on the text each LangChain view (`langChainTools`) returns; the agent loop and the servers cap at their own boundary. */
	maxOutputLength?: number;
	/** Stands around every run of these tools' nodes (e.g. the private-network guard). */
	guard?: NodeRunGuard;
	/**
	 * Runs a nested AgentOrchestrator (mode `nested`) when the model calls it as a tool, and
	 * resolves with its final answer (see `workflowNestedAgentRunner`). Without it such
	 * a tool is still listed, but a call answers with an error saying a model connection is
	 * needed.
	 */
	runNestedAgent?: WorkflowNestedAgentRunner;
	/**
	 * Approves calls of tools behind an n8n human-review gate (a `…HitlTool` node between
	 * the tools and the agent): each such call asks it first. Without it those calls are
	 * refused (an error observation saying nobody can review), never run unreviewed.
	 */
	review?: ToolReviewer;
}

/** Runs the nested agent `node` of a workflow on a prompt (its `$fromAI` markers already filled). */
export type WorkflowNestedAgentRunner = (
	node: INode,
	prompt: string,
	options: { args: Record<string, unknown>; signal?: AbortSignal },
) => Promise<string>;

/** The agent of a workflow and its tools, ready for an agent loop. */
export interface WorkflowTools {
	agentNode: INode;
	/** The tools as the agent loop, the servers and the CLI use them (observations, exact JSON Schema). */
	tools: CompiledTool[];
	/** LangChain `DynamicStructuredTool` views of the same tools, in the same order (made on first read). */
	readonly langChainTools: DynamicStructuredTool[];
	/** `$fromAI` problems of nodes left out (only with `onBuildError: 'collect'`). */
	problems: ToolBuildProblem[];
	host: StandaloneHost;
	workflow: WorkflowExport;
}

/**
 * Loads an n8n workflow export (a file path, JSON text or the parsed object), finds its agent
 * (the target of `ai_tool` connections) and turns every enabled node connected to the agent's
 * `ai_tool` input into a tool that runs the real node through n8n-core.
 *
 * @throws InvalidArgumentError (INVALID_ARGUMENT) for a workflow that is neither a path nor an object.
 * @throws WorkflowFileError when the input is not a workflow export.
 * @throws AgentNotFoundError when there is no agent, or several and `agent` is not set.
 * @throws NodeTypeNotFoundError when a tool node's type is not installed.
 * @throws ToolBuildError on `$fromAI` problems (unless `onBuildError: 'collect'`).
 */
export async function loadWorkflowTools(
	workflowInput: string | object,
	options: LoadWorkflowToolsOptions = {},
): Promise<WorkflowTools> {
	const check = argumentChecks('loadWorkflowTools');
	check.stringOrObject(workflowInput, 'workflow');
	check.optionalObject(options, 'options');
	const workflow = readWorkflowInput(workflowInput);
	const agentNode = selectAgent(workflow, options.agent);
	const host = options.host ?? (await StandaloneHost.create(options));
	const { tools, problems } = buildAgentTools(workflow, agentNode, host, options);
	let views: DynamicStructuredTool[] | undefined;
	return {
		tools,
		problems,
		agentNode,
		host,
		workflow,
		get langChainTools() {
			views ??= tools.map((tool) =>
				toLangChainTool(tool, { maxOutputLength: options.maxOutputLength }),
			);
			return views;
		},
	};
}

/**
 * The tools of one agent node of a loaded workflow: every enabled node connected to its
 * `ai_tool` input, as a bridge tool running the real node, or — for a nested
 * AgentOrchestrator — the tool its modes code builds from its own parameters (name by
 * n8n's rule, its Tool Description, arguments from its prompt's `$fromAI`). A human-review
 * gate (n8n's `…HitlTool` node) is not a tool itself: the tools on its own `ai_tool` input
 * are, each asking `review` before it runs (see `gateToolWithReview`).
 *
 * @throws NodeTypeNotFoundError when a tool node's type is not installed.
 * @throws ToolBuildError on `$fromAI` problems (unless `onBuildError: 'collect'`).
 */
export function buildAgentTools(
	workflow: WorkflowExport,
	agentNode: INode,
	host: StandaloneHost,
	options: Pick<
		LoadWorkflowToolsOptions,
		'onBuildError' | 'runNestedAgent' | 'guard' | 'review'
	> = {},
): Pick<WorkflowTools, 'tools' | 'problems'> {
	const runner = host.runnerFor(workflow, { guard: options.guard });
	const takenNames = new Set<string>();
	const tools: CompiledTool[] = [];
	const problems: ToolBuildProblem[] = [];
	const build = (node: INode): CompiledTool => {
		if (isNestedAgentNode(node)) {
			const tool = nestedAgentTool(
				node,
				(expression) => resolveDetachedExpression(workflow, node, expression),
				options.runNestedAgent,
			);
			takenNames.add(tool.name);
			return tool;
		}
		return createNodeAsTool({
			node,
			nodeTypeDescription: host.describe(node),
			runner,
			takenNames,
			resolveExpression: (expression) => host.resolveExpression(workflow, node, expression),
		});
	};
	for (const node of findToolNodes(workflow, agentNode.name)) {
		const gate = isReviewGateNode(node) ? reviewGateSpec(workflow, node) : undefined;
		for (const toolNode of gate ? findToolNodes(workflow, node.name) : [node]) {
			try {
				const tool = build(toolNode);
				tools.push(gate ? gateToolWithReview(tool, gate, options.review) : tool);
			} catch (error) {
				if (!(error instanceof ToolBuildError)) throw error;
				problems.push(...error.problems);
			}
		}
	}
	if (problems.length > 0 && options.onBuildError !== 'collect') throw new ToolBuildError(problems);
	return { tools, problems };
}

function nestedAgentTool(
	node: INode,
	resolveExpression: (expression: string) => unknown,
	run: WorkflowNestedAgentRunner | undefined,
): CompiledTool {
	const written = node.parameters.toolDescription;
	let description: string | undefined;
	if (typeof written === 'string' && written.startsWith('=')) {
		try {
			description = String(resolveExpression(written) ?? '');
		} catch (error) {
			throw toolDescriptionError(node.name, error);
		}
	}
	return createNestedAgentTool({
		spec: nestedAgentToolSpec(node, { description }),
		resolveExpression,
		run: (prompt, runOptions) => {
			if (!run) return Promise.reject(new NestedAgentUnavailableError(node.name));
			return run(node, prompt, runOptions);
		},
	});
}

/**
 * A workflow export from a file path, JSON text or the parsed object.
 * @throws WorkflowFileError when the input is not a workflow export.
 */
export function readWorkflowInput(input: string | object): WorkflowExport {
	if (typeof input !== 'string') return parseWorkflow(input);
	if (input.trimStart().startsWith('{')) {
		let value: unknown;
		try {
			value = JSON.parse(input);
		} catch (error) {
			throw new WorkflowFileError(
				`Workflow JSON text is not valid JSON: ${(error as Error).message}.`,
				{ cause: error },
			);
		}
		return parseWorkflow(value, 'Workflow JSON text');
	}
	return readWorkflowFile(input);
}
