import type { DynamicStructuredTool } from '@langchain/core/tools';
import type { INode } from 'n8n-workflow';
import type { AgentTool } from '../../tools/agent-tool';
import type { ToolBuildProblem } from '../../errors/tool-build-error';
import type { UnavailableTool } from '../../errors/unavailable-tools-error';
import { argumentChecks } from '../../errors/invalid-argument-error';
import { toLangChainTool } from '../../tools/langchain-tool-view';
import type { WorkflowNestedAgentRunner } from './agent-tools/workflow-nested-agent-runner';
import { openSession } from './session/open-workflow-session';
import type { OpenWorkflowSessionOptions } from './session/workflow-session-options';
import type { StandaloneHost } from './standalone-host';
import type { WorkflowExport } from './workflow-file';

export type { WorkflowNestedAgentRunner } from './agent-tools/workflow-nested-agent-runner';
export { readWorkflowInput } from './workflow-file';

/**
 * Options of {@link loadWorkflowTools}: those of `openWorkflowSession` (see
 * {@link OpenWorkflowSessionOptions}, where each is documented) that concern the host and the
 * tools — not the model connection or a run's events — and who runs a nested agent.
 */
export interface LoadWorkflowToolsOptions extends Omit<
	OpenWorkflowSessionOptions,
	| 'loadTools'
	| 'model'
	| 'baseUrl'
	| 'apiKey'
	| 'signal'
	| 'debug'
	| 'onEvent'
	| 'onAgentEnd'
	| 'onToolsUnavailable'
> {
	/**
	 * Runs a nested AgentOrchestrator (mode `nested`) when the model calls it as a tool, and
	 * resolves with its final answer (see `workflowNestedAgentRunner`). Without it such
	 * a tool is still listed, but a call answers with an error saying a model connection is
	 * needed. (`openWorkflowSession` runs them in its own session.)
	 */
	runNestedAgent?: WorkflowNestedAgentRunner;
	/**
	 * Time limit of each call, in ms. Default 0: none — the agent loop or server these tools are
	 * handed to sets its own (`openWorkflowSession` defaults to the loop's 120 s).
	 */
	toolTimeoutMs?: number;
}

/** The agent of a workflow and its tools, ready for an agent loop. */
export interface WorkflowTools {
	agentNode: INode;
	/**
	 * The tools as the agent loop, the servers and the CLI use them (observations, exact JSON
	 * Schema): each observation with every secret the host knows redacted and its text capped
	 * at `maxOutputLength` (each call time-limited when `toolTimeoutMs` is set).
	 */
	tools: AgentTool[];
	/** LangChain `DynamicStructuredTool` views of the same tools (same boundary), in the same order (made on first read). */
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
 * call their own `supplyData` gives, other nodes through their `$fromAI` markers. The tools are
 * those of `openWorkflowSession` (the same opening): what they hand out — and their LangChain
 * views — has the session's secrets redacted and is capped at `maxOutputLength`.
 *
 * @throws InvalidArgumentError (INVALID_ARGUMENT) for a workflow that is neither a path nor an object.
 * @throws WorkflowFileError when the input is not a workflow export.
 * @throws AgentNotFoundError when there is no agent, or several and `agent` is not set.
 * @throws ToolbridgeError (CREDENTIALS_INVALID) when a credentials source is malformed.
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
	const session = await openSession(
		'loadWorkflowTools',
		workflowInput,
		{ ...options, toolTimeoutMs: options.toolTimeoutMs ?? 0 },
		options.runNestedAgent ?? 'none',
	);
	const { tools, problems, unavailable, host, workflow, close } = session;
	let views: DynamicStructuredTool[] | undefined;
	return {
		tools,
		problems,
		unavailable,
		agentNode: session.agentNode!,
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
