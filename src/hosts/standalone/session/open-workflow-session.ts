import type { INode } from 'n8n-workflow';
import { OutputBoundary } from '../../../agent/output-boundary';
import { defaultRunTimeLimits } from '../../../agent/time-limits/default-time-limits';
import { withToolTimeout } from '../../../agent/time-limits/with-tool-timeout';
import type { ToolBuildProblem } from '../../../errors/tool-build-error';
import { argumentChecks } from '../../../errors/invalid-argument-error';
import type { AgentTool } from '../../../tools/agent-tool';
import type { UnavailableTool } from '../../../errors/unavailable-tools-error';
import { buildAgentTools } from '../agent-tools/build-agent-tools';
import { readWorkflowInput, type LoadWorkflowToolsOptions } from '../load-workflow-tools';
import { StandaloneHost } from '../standalone-host';
import { selectAgent } from '../workflow-file';
import { workflowNestedAgentRunner } from './run-workflow-agent-node';
import type { ConnectionOverrides } from '../workflow/resolve-connection-fields';
import { createSessionRedactor, type WorkflowSession } from './workflow-session';

/** Options of {@link openWorkflowSession}. */
export interface OpenWorkflowSessionOptions
	extends
		Omit<LoadWorkflowToolsOptions, 'runNestedAgent' | 'maxOutputLength'>,
		ConnectionOverrides,
		Pick<
			WorkflowSession,
			| 'model'
			| 'debug'
			| 'onEvent'
			| 'onAgentEnd'
			| 'signal'
			| 'maxOutputLength'
			| 'guard'
			| 'onToolsUnavailable'
			| 'review'
		> {
	/**
	 * Load the tools of the agent (`agent`, or the workflow's only one) into `tools`. Default
	 * true; `false` for callers that only run agents (their tools are built per run).
	 */
	loadTools?: boolean;
	/** Time limit of each call of `tools`, in ms (default the loop's, 120 s; 0: none). */
	toolTimeoutMs?: number;
}

/** A workflow opened in the standalone host, ready for tool calls and agent runs. */
export interface OpenedWorkflowSession extends WorkflowSession {
	/** The agent whose tools `tools` holds (absent with `loadTools: false`). */
	agentNode?: INode;
	/**
	 * The agent's tools as a caller outside an agent loop uses them (`toolbridge call`, MCP):
	 * each call time-limited, its observation through {@link boundary} (the session's secrets
	 * redacted, the text capped once). A nested agent among them runs its own loop in this session.
	 */
	tools: AgentTool[];
	/** `$fromAI` problems of nodes left out (with `onBuildError: 'collect'`). */
	problems: ToolBuildProblem[];
	/** Tool nodes left out because they cannot be served (with `skipUnavailable`). */
	unavailable: UnavailableTool[];
	/**
	 * Closes what the session's tool sub-nodes opened (an MCP Client Tool's connection, a
	 * database pool) and cancels their runs. Call it when the session ends.
	 */
	close(): Promise<void>;
	/** Where every observation of `tools` leaves the session. */
	boundary: OutputBoundary;
	/** A tool of `tools` by its tool name, else by its node's name. */
	findTool(name: string): AgentTool | undefined;
}

/**
 * Opens an n8n workflow export (a file path, JSON text or the parsed object) the way every
 * standalone command needs it: the workflow read, the host (node packages, credentials from
 * the records, file and environment), the session's redactor (every secret it knows), the
 * network guard as an option, and — unless `loadTools: false` — the agent's tools, wrapped
 * with their time limit and output boundary. Nested agents among the tools run in the same
 * session (guard, redactor, connection overrides, events).
 *
 * @throws InvalidArgumentError (INVALID_ARGUMENT) for a workflow that is neither a path nor an object.
 * @throws WorkflowFileError when the input is not a workflow export.
 * @throws AgentNotFoundError when tools are to be loaded and there is no agent, or several and `agent` is not set.
 * @throws ToolbridgeError (CREDENTIALS_INVALID) when a credentials source is malformed.
 * @throws UnavailableToolsError / ToolBuildError as `loadWorkflowTools` does.
 */
export async function openWorkflowSession(
	workflowInput: string | object,
	options: OpenWorkflowSessionOptions = {},
): Promise<OpenedWorkflowSession> {
	const check = argumentChecks('openWorkflowSession');
	check.stringOrObject(workflowInput, 'workflow');
	check.optionalObject(options, 'options');
	const workflow = readWorkflowInput(workflowInput);
	const agentNode = options.loadTools === false ? undefined : selectAgent(workflow, options.agent);
	const host = options.host ?? (await StandaloneHost.create(options));
	const connection: ConnectionOverrides = {
		baseUrl: options.baseUrl,
		apiKey: options.apiKey,
		env: options.env,
	};
	const redactor = createSessionRedactor(workflow, host, connection);
	const boundary = new OutputBoundary({ redactor, maxOutputLength: options.maxOutputLength });
	const session: OpenedWorkflowSession = {
		workflow,
		host,
		connection,
		redactor,
		model: options.model,
		debug: options.debug,
		onEvent: options.onEvent,
		onAgentEnd: options.onAgentEnd,
		signal: options.signal,
		maxOutputLength: options.maxOutputLength,
		guard: options.guard,
		skipUnavailable: options.skipUnavailable,
		onToolsUnavailable: options.onToolsUnavailable,
		review: options.review,
		agentNode,
		tools: [],
		problems: [],
		unavailable: [],
		close: async () => {},
		boundary,
		findTool: (name) =>
			session.tools.find((tool) => tool.name === name) ??
			session.tools.find((tool) => tool.sourceNodeName === name),
	};
	if (agentNode) {
		const built = await buildAgentTools(workflow, agentNode, host, {
			onBuildError: options.onBuildError,
			guard: options.guard,
			skipUnavailable: options.skipUnavailable,
			review: options.review,
			runNestedAgent: workflowNestedAgentRunner(session),
		});
		const timeoutMs = options.toolTimeoutMs ?? defaultRunTimeLimits.toolTimeoutMs;
		session.tools = built.tools.map((tool) => withToolTimeout(tool, timeoutMs, { boundary }));
		session.problems = built.problems;
		session.unavailable = built.unavailable;
		session.close = built.close;
	}
	return session;
}
