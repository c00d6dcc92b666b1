import type { Redactor } from '../../../chat/redactor';
import type { Usage } from '../../../chat/types';
import type { UnavailableTool } from '../../../errors/unavailable-tools-error';
import type { NodeRunGuard, StandaloneHost } from '../standalone-host';
import type { WorkflowExport } from '../workflow-file';
import type { AgentEventListener } from '../../../agent/agent-event';
import type { ToolReviewer } from '../../../tools/tool-review';
import type { ConnectionOverrides } from '../workflow/resolve-connection-fields';
import type { ConversationStore } from '../conversation-store';

/**
 * What every agent run of one workflow shares in the standalone host — the outermost agent
 * and the nested agents it calls as tools: the workflow, the host that runs its nodes, the
 * caller's connection overrides and where events go.
 */
export interface WorkflowSession {
	workflow: WorkflowExport;
	host: StandaloneHost;
	/** `--base-url`, `--api-key` and the environment: they apply to every agent of the run. */
	connection: ConnectionOverrides;
	/**
	 * Every secret the session knows (see {@link createSessionRedactor}); each agent run adds
	 * its own key and headers, and whatever leaves the session goes through it.
	 */
	redactor: Redactor;
	/**
	 * The output of nodes that do not run here, by node name (`--pin NODE=JSON`), over the
	 * export's `pinData`: what `$('NODE')` reads in the agents' expressions.
	 */
	pins?: Record<string, unknown>;
	/** Replaces the model of the outermost agent run only (nested agents keep their own). */
	model?: string;
	/** Forces the `[DEBUG]` log on or off for every agent; default: each node's "Debug Log" option. */
	debug?: boolean;
	/**
	 * Events of the outermost agent; `[DEBUG]` lines of nested agents arrive here too,
	 * prefixed with their agent path (`Parent › Researcher`).
	 */
	onEvent?: AgentEventListener;
	/** Called when any agent run ends, with its whole usage (its nested agents' included). */
	onAgentEnd?: (info: { agentName: string; path: string[]; usage: Usage }) => void;
	signal?: AbortSignal;
	/** Cap on the text each node tool hands the model. */
	maxOutputLength?: number;
	/** Stands around every node run of the session, nested agents' tools included (see {@link NodeRunGuard}). */
	guard?: NodeRunGuard;
	/**
	 * Every agent of the session serves the tools that can be served and reports the others
	 * to {@link onToolsUnavailable} (default false: an agent with an unavailable tool fails).
	 */
	skipUnavailable?: boolean;
	/** Told, once per agent run, which tools `skipUnavailable` left out. */
	onToolsUnavailable?: (info: {
		agentName: string;
		path: string[];
		tools: UnavailableTool[];
	}) => void;
	/**
	 * Approves calls of tools behind an n8n human-review gate, nested agents' included;
	 * without it such calls are refused (see `gateToolWithReview`).
	 */
	review?: ToolReviewer;
	/**
	 * Where conversations live between turns: Simple Memory sessions and the sessions' locks
	 * (default: this process's store; see `openAgentMemory`).
	 */
	conversationStore?: ConversationStore;
}

/**
 * The redactor of a workflow session: the secrets the host hands the nodes of the workflow
 * and of the sub-workflows it may call (credential records, credential-like header
 * parameters), the `--api-key` override and `OPENROUTER_API_KEY` — and, since it is made from
 * the host's redactor, every token n8n-core refreshes while the session runs.
 */
export function createSessionRedactor(
	workflow: WorkflowExport,
	host: StandaloneHost,
	connection: ConnectionOverrides,
): Redactor {
	return host
		.redactorFor(workflow)
		.with([connection.apiKey, (connection.env ?? process.env).OPENROUTER_API_KEY]);
}
