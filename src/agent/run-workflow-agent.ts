import type { INode } from 'n8n-workflow';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import { loadWorkflowTools, type LoadWorkflowToolsOptions } from '../tools/hosts/standalone/load-workflow-tools';
import type { AgentResult, AgentState } from './agent-state';
import type { AgentEventListener } from './agent-event';
import { createChatModelCaller } from './create-chat-model-caller';
import { runAgent } from './run-agent';
import { n8nAgentNodeType, readN8nAgentSettings } from './workflow/read-n8n-agent-settings';
import { readOrchestratorSettings } from './workflow/read-orchestrator-settings';
import type { ConnectionOverrides } from './workflow/resolve-connection-fields';
import type { ReadWorkflowAgentOptions, WorkflowAgentSettings } from './workflow/workflow-agent-settings';

/** The AgentOrchestrator node's full type name. */
export const orchestratorNodeType = 'n8n-nodes-toolbridge.agentOrchestrator';

/** Options of {@link runWorkflowAgent}. */
export interface RunWorkflowAgentOptions extends Omit<LoadWorkflowToolsOptions, 'onBuildError'>, ConnectionOverrides {
	/** The user's text: the agent node reads it as `$json.chatInput`, as from n8n's Chat Trigger. */
	prompt: string;
	/** Replaces the model the workflow names. */
	model?: string;
	signal?: AbortSignal;
	/** Streaming text, model calls, tool steps and, with `debug`, `[DEBUG]` lines. */
	onEvent?: AgentEventListener;
	/** Emit `[DEBUG]` lines (API keys redacted). Default: the node's "Debug Log" option. */
	debug?: boolean;
}

/** A finished run of a workflow's agent. */
export interface WorkflowAgentRun {
	agentNode: INode;
	/** Which node type the agent is: ours, or n8n's AI Agent read as ours. */
	kind: WorkflowAgentSettings['kind'];
	model: string;
	/** The user message that was sent (the node's prompt, resolved). */
	prompt: string;
	baseUrl: string;
	/** The tool names the model was offered. */
	tools: string[];
	result: AgentResult;
	state: AgentState;
}

/**
 * Runs the agent of an n8n workflow export without an n8n server — the library form of
 * `toolbridge run`. The agent is an AgentOrchestrator node (read with the node's own
 * settings mapping) or n8n's AI Agent (prompt, system message, max iterations, and the model
 * and credential of its OpenRouter / OpenAI chat-model sub-node); its `ai_tool` nodes run
 * as real n8n nodes in the standalone host. Base URL and API key: the options, then the
 * credential record the workflow references (`credentials` / `credentialsFile`), then
 * `OPENROUTER_API_KEY` / `OPENAI_BASE_URL` / `OPENROUTER_BASE_URL`, then OpenRouter.
 *
 * @throws {AgentConfigurationError} for an agent node of another type, an unsupported mode,
 * an empty prompt, no model, no API key or a bad base URL.
 * @throws what `loadWorkflowTools` throws (WorkflowFileError, AgentNotFoundError, ToolBuildError …).
 * @throws what `runAgent` throws (AgentStoppedError, the chat client's ApiCallError …).
 */
export async function runWorkflowAgent(workflowInput: string | object, options: RunWorkflowAgentOptions): Promise<WorkflowAgentRun> {
	const { agentNode, tools, host, workflow } = await loadWorkflowTools(workflowInput, options);
	const readOptions: ReadWorkflowAgentOptions = {
		chatInput: options.prompt,
		model: options.model,
		baseUrl: options.baseUrl,
		apiKey: options.apiKey,
		env: options.env,
		timezone: workflow.settings?.timezone,
		credentials: (details, type) => host.credentialsHelper.find(details, type),
	};
	const settings = await readAgentSettings(agentNode, workflow, readOptions);
	if (settings.prompt.trim() === '') {
		throw new AgentConfigurationError('prompt', `The prompt is empty: agent "${agentNode.name}" reads the user's text ({{ $json.chatInput }}); give it as the prompt (--prompt TEXT).`);
	}
	const outcome = await runAgent({
		input: { config: settings.config, prompt: settings.prompt },
		tools,
		callModel: createChatModelCaller(settings.connection),
		signal: options.signal,
		onEvent: options.onEvent,
		concurrency: settings.concurrency,
		debug: options.debug ?? settings.debugLog,
		secrets: settings.secrets,
	});
	return {
		agentNode,
		kind: settings.kind,
		model: outcome.state.config.model,
		prompt: settings.prompt,
		baseUrl: settings.connection.baseUrl,
		tools: tools.map((tool) => tool.name),
		result: outcome.result,
		state: outcome.state,
	};
}

function readAgentSettings(agentNode: INode, workflow: Parameters<typeof readN8nAgentSettings>[1], options: ReadWorkflowAgentOptions): Promise<WorkflowAgentSettings> {
	if (agentNode.type === orchestratorNodeType) return readOrchestratorSettings(agentNode, options);
	if (agentNode.type === n8nAgentNodeType) return readN8nAgentSettings(agentNode, workflow, options);
	throw new AgentConfigurationError(
		'agent',
		`Node "${agentNode.name}" (${agentNode.type}) is not an agent toolbridge can run: use an Agent Orchestrator (${orchestratorNodeType}) or n8n's AI Agent (${n8nAgentNodeType}).`,
	);
}
