import type { INode } from 'n8n-workflow';
import { OutputBoundary } from '../../../agent/output-boundary';
import { defaultRunTimeLimits } from '../../../agent/time-limits/default-time-limits';
import { withToolTimeout } from '../../../agent/time-limits/with-tool-timeout';
import type { ToolBuildProblem } from '../../../errors/tool-build-error';
import { argumentChecks } from '../../../errors/invalid-argument-error';
import type { AgentTool } from '../../../tools/agent-tool';
import type { UnavailableTool } from '../../../errors/unavailable-tools-error';
import { buildAgentTools } from '../agent-tools/build-agent-tools';
import { StandaloneHost } from '../standalone-host';
import { readWorkflowInput, selectAgent } from '../workflow-file';
import type { WorkflowNestedAgentRunner } from '../agent-tools/workflow-nested-agent-runner';
import type { OpenWorkflowSessionOptions } from './workflow-session-options';
import { workflowNestedAgentRunner } from './run-workflow-agent-node';
import type { ConnectionOverrides } from '../workflow/resolve-connection-fields';
import { createSessionRedactor, type WorkflowSession } from './workflow-session';

export type { OpenWorkflowSessionOptions } from './workflow-session-options';

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
 * standalone entry point needs it — `loadWorkflowTools`, `runWorkflowAgent` and the CLI's
 * commands open through here: the workflow read, the host (node packages, credentials from
 * the records, file and environment), the session's redactor (every secret it knows, and
 * every token n8n-core refreshes while it runs), the output boundary (redaction and the
 * `maxOutputLength` cap), the network guard as an option, and — unless `loadTools: false` —
 * the agent's tools, each call time-limited and its observation through the boundary. Nested
 * agents among the tools run in the same session (guard, redactor, connection overrides, events).
 *
 * @throws InvalidArgumentError (INVALID_ARGUMENT) for a workflow that is neither a path nor an
 *   object, or a `maxOutputLength` that is not a positive number.
 * @throws WorkflowFileError when the input is not a workflow export.
 * @throws AgentNotFoundError when tools are to be loaded and there is no agent, or several and `agent` is not set.
 * @throws ToolbridgeError (CREDENTIALS_INVALID) when a credentials source is malformed.
 * @throws UnavailableToolsError naming every tool that cannot be served (unless `skipUnavailable`).
 * @throws ToolBuildError on `$fromAI` problems (unless `onBuildError: 'collect'`).
 */
export function openWorkflowSession(
	workflowInput: string | object,
	options: OpenWorkflowSessionOptions = {},
): Promise<OpenedWorkflowSession> {
	return openSession('openWorkflowSession', workflowInput, options);
}

/**
 * The one opening of {@link openWorkflowSession}, `loadWorkflowTools` and `runWorkflowAgent`:
 * `caller` names the function in argument errors; `nestedAgents` is who runs a nested agent
 * called as a tool — the session itself (default), the caller's runner, or nobody (`none`: such
 * a call answers that a model connection is needed).
 * @throws as {@link openWorkflowSession}.
 */
export async function openSession(
	caller: string,
	workflowInput: string | object,
	options: OpenWorkflowSessionOptions,
	nestedAgents: 'session' | 'none' | WorkflowNestedAgentRunner = 'session',
): Promise<OpenedWorkflowSession> {
	const check = argumentChecks(caller);
	check.stringOrObject(workflowInput, 'workflow');
	check.optionalObject(options, 'options');
	const { maxOutputLength } = options;
	if (
		maxOutputLength !== undefined &&
		!(typeof maxOutputLength === 'number' && maxOutputLength > 0)
	)
		check.fail(
			'options.maxOutputLength',
			'a positive number of characters (Infinity: no cap)',
			maxOutputLength,
		);
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
		conversationStore: options.conversationStore,
		pins: options.pins,
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
			pins: options.pins,
			runNestedAgent:
				nestedAgents === 'session'
					? workflowNestedAgentRunner(session)
					: nestedAgents === 'none'
						? undefined
						: nestedAgents,
		});
		const timeoutMs = options.toolTimeoutMs ?? defaultRunTimeLimits.toolTimeoutMs;
		session.tools = built.tools.map((tool) => withToolTimeout(tool, timeoutMs, { boundary }));
		session.problems = built.problems;
		session.unavailable = built.unavailable;
		session.close = built.close;
	}
	return session;
}
