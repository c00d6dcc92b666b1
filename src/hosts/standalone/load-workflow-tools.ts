import type { DynamicStructuredTool } from '@langchain/core/tools';
import type { INode } from 'n8n-workflow';
import type { AgentTool } from '../../tools/agent-tool';
import type { ToolBuildProblem } from '../../errors/tool-build-error';
import type { UnavailableTool } from '../../errors/unavailable-tools-error';
import { WorkflowFileError } from '../../errors/workflow-file-error';
import { argumentChecks } from '../../errors/invalid-argument-error';
import { toLangChainTool } from '../../tools/langchain-tool-view';
import type { ToolReviewer } from '../../tools/tool-review';
import { buildAgentTools } from './agent-tools/build-agent-tools';
import type { WorkflowNestedAgentRunner } from './agent-tools/workflow-nested-agent-runner';
import { StandaloneHost, type NodeRunGuard, type StandaloneHostOptions } from './standalone-host';
import { parseWorkflow, readWorkflowFile, selectAgent, type WorkflowExport } from './workflow-file';

export type { WorkflowNestedAgentRunner } from './agent-tools/workflow-nested-agent-runner';

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
	 * Serve the tools that can be served and list the others in `unavailable` (the CLI's
	 * `--skip-unavailable`). Default false: a tool that cannot be served (its package not
	 * installed, its kind not supported outside n8n, its node failing to supply it) fails the
	 * load with an UnavailableToolsError naming every such tool and the command that installs
	 * missing packages.
	 */
	skipUnavailable?: boolean;
	/**
	 * The output of nodes that do not run here, by node name (an item's JSON or an array of
	 * them), over the export's `pinData`: what `$('NODE')` reads in the tools' expressions.
	 */
	pins?: Record<string, unknown>;
	/**
	 * Approves calls of tools behind an n8n human-review gate (a `…HitlTool` node between
	 * the tools and the agent): each such call asks it first. Without it those calls are
	 * refused (an error observation saying nobody can review), never run unreviewed.
	 */
	review?: ToolReviewer;
}

/** The agent of a workflow and its tools, ready for an agent loop. */
export interface WorkflowTools {
	agentNode: INode;
	/** The tools as the agent loop, the servers and the CLI use them (observations, exact JSON Schema). */
	tools: AgentTool[];
	/** LangChain `DynamicStructuredTool` views of the same tools, in the same order (made on first read). */
	readonly langChainTools: DynamicStructuredTool[];
	/** `$fromAI` problems of nodes left out (only with `onBuildError: 'collect'`). */
	problems: ToolBuildProblem[];
	/** Tool nodes left out because they cannot be served (only with `skipUnavailable`). */
	unavailable: UnavailableTool[];
	host: StandaloneHost;
	workflow: WorkflowExport;
	/** Closes what tool sub-nodes opened (an MCP Client Tool's connection, a database pool). */
	close(): Promise<void>;
}

/**
 * Loads an n8n workflow export (a file path, JSON text or the parsed object), finds its agent
 * (the target of `ai_tool` connections) and turns every enabled node connected to the agent's
 * `ai_tool` input into a tool that runs the real node through n8n-core: n8n's tool sub-nodes
 * (Calculator, HTTP Request Tool, Vector Store Tool, MCP Client Tool …) with the schema and the
 * call their own `supplyData` gives, other nodes through their `$fromAI` markers.
 *
 * @throws InvalidArgumentError (INVALID_ARGUMENT) for a workflow that is neither a path nor an object.
 * @throws WorkflowFileError when the input is not a workflow export.
 * @throws AgentNotFoundError when there is no agent, or several and `agent` is not set.
 * @throws UnavailableToolsError naming every tool that cannot be served (unless `skipUnavailable`).
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
	const { tools, problems, unavailable, close } = await buildAgentTools(
		workflow,
		agentNode,
		host,
		options,
	);
	let views: DynamicStructuredTool[] | undefined;
	return {
		tools,
		problems,
		unavailable,
		agentNode,
		host,
		workflow,
		close,
		get langChainTools() {
			views ??= tools.map((tool) =>
				toLangChainTool(tool, { maxOutputLength: options.maxOutputLength }),
			);
			return views;
		},
	};
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
