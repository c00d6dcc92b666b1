import type { IDataObject, INode } from 'n8n-workflow';
import type { ChatMessage } from '../../chat/types';
import { AgentConfigurationError } from '../../errors/agent-configuration-error';
import { argumentChecks } from '../../errors/invalid-argument-error';
import { selectAgent } from './workflow-file';
import { openSession } from './session/open-workflow-session';
import type { OpenWorkflowSessionOptions } from './session/workflow-session-options';
import type { AgentResult, AgentState } from '../../agent/agent-state';
import type { ValidatorResult } from '../../agent/modes/validator/validator-state';
import { isNestedAgentNode, nestedAgentToolSpec } from '../../tools/nested-agent-tool-spec';
import { runWorkflowAgentNode } from './session/run-workflow-agent-node';
import type { WorkflowAgentSettings } from './workflow/workflow-agent-settings';
import type { UserMessageChoice } from './workflow/choose-user-message';
import type { WorkflowSession } from './session/workflow-session';
import type { AgentMemoryInfo } from './workflow/agent-memory';

export { orchestratorNodeType } from './session/run-workflow-agent-node';

/**
 * Options of {@link runWorkflowAgent}: the prompt and history, and those of
 * `openWorkflowSession` (see {@link OpenWorkflowSessionOptions}, where each is documented)
 * that apply to a run — the agent's tools are built per run, in its session.
 */
export interface RunWorkflowAgentOptions extends Omit<
	OpenWorkflowSessionOptions,
	'loadTools' | 'onBuildError' | 'toolTimeoutMs'
> {
	/**
	 * The user's text: the user message, whatever the agent's prompt reads. A prompt that wraps
	 * `$json.chatInput` (`Answer this: {{ $json.chatInput }}`) keeps its wrapping; the node's
	 * own prompt is sent instead only when `input` is given, a `pins` entry names a node it
	 * reads, or the text is empty (see {@link WorkflowAgentRun.userMessage}).
	 */
	prompt: string;
	/** The item the agent node receives (`$json` in its expressions), as in n8n; `prompt` becomes its `chatInput`. */
	input?: Record<string, unknown>;
	/**
	 * The output of nodes that do not run here, by node name (the JSON of an item, or an array
	 * of them), over the export's `pinData`: what `$('NODE')` reads in the agents' prompt,
	 * system message and tool descriptions.
	 */
	pins?: Record<string, unknown>;
	/**
	 * Earlier turns of the conversation (user, assistant and tool messages, no system
	 * message), sent before the prompt — e.g. the messages of a Chat Completions request.
	 * Full mode only; the validator takes the prompt alone. With a memory sub-node in use,
	 * the memory's conversation comes first, then these.
	 */
	history?: ChatMessage[];
	/**
	 * The conversation's session id: the agent's memory sub-node (Simple, Postgres, Redis …
	 * Chat Memory) loads this session's turns before the run and saves the run's turn after,
	 * keyed as the node keys it (its Session ID "fromInput" reads `$json.sessionId`, which this
	 * sets, as n8n's Chat Trigger does; "customKey" evaluates its key). Without one a run is
	 * one-off: the memory is not used (see `run.memory.notes`). Two runs on one session never
	 * overlap: the second waits briefly, then fails with SESSION_BUSY. See docs/conversations.md.
	 */
	sessionId?: string;
}

interface WorkflowAgentRunBase {
	agentNode: INode;
	/** Which node type the agent is: ours, or n8n's AI Agent read as ours. */
	kind: WorkflowAgentSettings['kind'];
	model: string;
	/** The user message that was sent (the user's text, or the node's prompt resolved). */
	prompt: string;
	/** Which text {@link prompt} is — the user's or the node's prompt — and why. */
	userMessage: UserMessageChoice;
	baseUrl: string;
	/** The tool names the model was offered. */
	tools: string[];
}

/** A finished full-mode run (the agent loop); `result.usage` includes nested agents' usage. */
export interface FullWorkflowAgentRun extends WorkflowAgentRunBase {
	mode: 'full';
	result: AgentResult;
	state: AgentState;
	/** The agent's memory sub-node, when it has one: its session id, or why it was not used. */
	memory?: AgentMemoryInfo;
}

/** A finished validator-mode run: one validated tool call (`result` absent with "Validate Only"). */
export interface ValidatorWorkflowAgentRun extends WorkflowAgentRunBase {
	mode: 'validator';
	validator: ValidatorResult;
	/** "Return Intermediate Steps" of the node: show usage and every attempt. */
	returnIntermediateSteps: boolean;
}

/** A finished run of a workflow's agent. */
export type WorkflowAgentRun = FullWorkflowAgentRun | ValidatorWorkflowAgentRun;

/**
 * Runs the agent of an n8n workflow export without an n8n server — the library form of
 * `toolbridge run`. The agent is an AgentOrchestrator node (read with the node's own
 * settings mapping; full or validator mode) or n8n's AI Agent (prompt, system message, max
 * iterations, and the model and credential of its OpenRouter / OpenAI chat-model sub-node);
 * its `ai_tool` nodes run as real n8n nodes in the standalone host, and nested
 * AgentOrchestrators among them run their own loops with their own tools and credentials
 * (depth limit, cycle check, abort and usage roll-up as inside n8n). Base URL and API key:
 * the options, then the credential record each agent references (`credentials` /
 * `credentialsFile`), then `OPENROUTER_API_KEY` / `OPENAI_BASE_URL` / `OPENROUTER_BASE_URL`,
 * then OpenRouter.
 *
 * Every secret the run knows — the API keys, the secret fields of the credential records the
 * workflow's nodes use, credential-like header values — is replaced by `[REDACTED]` in the
 * result, the events, the debug lines and the errors thrown; the text the model reads from a
 * tool is cut at `maxOutputLength` (default 20000 characters), errors and nested answers too.
 *
 * @throws {InvalidArgumentError} (INVALID_ARGUMENT) for a workflow that is neither a path nor an
 * object, options without a string `prompt`, or an `input` / `pins` that is not an object.
 * @throws {UnresolvedNodeReferenceError} when an expression of the agent reads a node that has no
 * pinned output (give it in `pins`).
 * @throws {SessionBusyError} (SESSION_BUSY) when another run on `sessionId` has not finished.
 * @throws {MemoryUnavailableError} (MEMORY_UNAVAILABLE) when the memory sub-node cannot be used
 * and its agent's "On Memory Error" is "fail", or its node type is not installed.
 * @throws {AgentConfigurationError} for an agent node of another type, a nested agent chosen
 * as the outermost one, an empty prompt, no model, no API key or a bad base URL.
 * @throws what `loadWorkflowTools` throws (WorkflowFileError, AgentNotFoundError, ToolBuildError …).
 * @throws what `runAgent` / `runValidator` throw (AgentStoppedError, ValidatorError, ApiCallError …).
 */
export async function runWorkflowAgent(
	workflowInput: string | object,
	options: RunWorkflowAgentOptions,
): Promise<WorkflowAgentRun> {
	const check = argumentChecks('runWorkflowAgent');
	check.stringOrObject(workflowInput, 'workflow');
	check.object(options, 'options');
	check.string(options.prompt, 'options.prompt');
	if (options.input !== undefined) check.object(options.input, 'options.input');
	if (options.pins !== undefined) check.object(options.pins, 'options.pins');
	if (options.sessionId !== undefined) check.string(options.sessionId, 'options.sessionId');
	const session = await openSession('runWorkflowAgent', workflowInput, {
		...options,
		loadTools: false,
	});
	return runSessionAgent(session, options);
}

/** What one agent run of an opened session is given. */
export interface SessionAgentInput {
	/** The agent node's name when the workflow has several agents. */
	agent?: string;
	/** The user's text: the user message (see {@link RunWorkflowAgentOptions.prompt}). */
	prompt: string;
	/** The item the agent node receives (`$json`). */
	input?: Record<string, unknown>;
	/** Other nodes' output by node name, over the session's pins and the export's `pinData` (see {@link RunWorkflowAgentOptions.pins}). */
	pins?: Record<string, unknown>;
	/** Earlier turns of the conversation (full mode). */
	history?: ChatMessage[];
	/** The conversation's session id (see {@link RunWorkflowAgentOptions.sessionId}). */
	sessionId?: string;
}

/**
 * Runs the agent of a workflow in an opened session (see `openWorkflowSession`): what
 * {@link runWorkflowAgent} does after opening, for callers that run many agents on one session
 * (`toolbridge serve`: one host, one redactor, one network guard; each request's signal and
 * events spread over the session).
 *
 * @throws as {@link runWorkflowAgent}, redacted.
 */
export async function runSessionAgent(
	session: WorkflowSession,
	input: SessionAgentInput,
): Promise<WorkflowAgentRun> {
	const agentNode = selectAgent(session.workflow, input.agent);
	if (isNestedAgentNode(agentNode)) {
		const toolName = nestedAgentToolSpec(agentNode).name;
		throw new AgentConfigurationError(
			'mode',
			`Node "${agentNode.name}" is a nested agent (a tool of another agent), so it takes its task from its caller, not --prompt. Call it as a tool: toolbridge call <workflow.json> ${toolName} --args '{"task":"…"}'.`,
		);
	}
	const run =
		input.pins === undefined ? session : { ...session, pins: { ...session.pins, ...input.pins } };
	const outcome = await runWorkflowAgentNode(run, agentNode, {
		chatInput: input.prompt,
		item: input.input as IDataObject | undefined,
		history: input.history,
		sessionId: input.sessionId,
	}).catch((error: unknown) => {
		throw session.redactor.error(error);
	});
	const redactor = session.redactor.with(outcome.settings.secrets);
	const base: WorkflowAgentRunBase = {
		agentNode,
		kind: outcome.settings.kind,
		model: outcome.settings.config.model,
		prompt: outcome.settings.prompt,
		userMessage: outcome.userMessage,
		baseUrl: outcome.settings.connection.baseUrl,
		tools: outcome.tools.map((tool) => tool.name),
	};
	if (outcome.mode === 'validator') {
		return {
			...base,
			mode: 'validator',
			validator: redactor.value(outcome.result),
			returnIntermediateSteps: outcome.settings.returnIntermediateSteps,
		};
	}
	return {
		...base,
		mode: 'full',
		model: outcome.state.config.model,
		result: redactor.value(outcome.result),
		state: redactor.value(outcome.state),
		...(outcome.memory ? { memory: redactor.value(outcome.memory) } : {}),
	};
}
