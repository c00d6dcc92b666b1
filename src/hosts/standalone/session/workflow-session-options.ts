import type { AgentEventListener } from '../../../agent/agent-event';
import type { Usage } from '../../../chat/types';
import type { UnavailableTool } from '../../../errors/unavailable-tools-error';
import type { ToolReviewer } from '../../../tools/tool-review';
import type { NodeRunGuard } from '../node-run-guard';
import type { StandaloneHost, StandaloneHostOptions } from '../standalone-host';
import type { ConversationStore } from '../conversation-store';

/**
 * Everything the standalone entry points accept, in one place: `openWorkflowSession` takes
 * all of it; `loadWorkflowTools` and `runWorkflowAgent` take the parts that apply to them (see
 * their option types). Grouped as the session uses them: the host, the workflow's agent and
 * its tools, the output boundary, the model connection, the run's events.
 */
export interface OpenWorkflowSessionOptions {
	// The host: node packages and credentials.

	/** Reuse a host (loaded packages and credentials) across workflows; the next fields are then ignored. */
	host?: StandaloneHost;
	/** Extra package roots (folders holding a package.json with an `n8n` section). */
	packageDirs?: StandaloneHostOptions['packageDirs'];
	/** `node_modules` folders scanned for `n8n-nodes-*` packages (default: n8n-nodes-base's and `./node_modules`). */
	nodeModulesDirs?: StandaloneHostOptions['nodeModulesDirs'];
	/** Credential records by credential name or type; merged over `credentialsFile` and the environment. */
	credentials?: StandaloneHostOptions['credentials'];
	/** A JSON file of credential records (`--credentials`). */
	credentialsFile?: string;
	/**
	 * Environment for `TOOLBRIDGE_CREDENTIALS(_FILE)`, `OPENROUTER_API_KEY`, `OPENAI_BASE_URL`
	 * and `OPENROUTER_BASE_URL`. Default `process.env`.
	 */
	env?: NodeJS.ProcessEnv;
	/** Node classes in hand by full type name, as factories; they win over installed packages. */
	nodeTypes?: StandaloneHostOptions['nodeTypes'];
	/** Workflow exports that sub-workflow calls find by `id`, then name (`--workflows`). */
	workflows?: StandaloneHostOptions['workflows'];
	/** Told what the host had to guess, once each. */
	onNotice?: (message: string) => void;

	// The agent and its tools.

	/** The agent node's name when several nodes have tools connected. */
	agent?: string;
	/**
	 * Load the tools of the agent (`agent`, or the workflow's only one) into `tools`. Default
	 * true; `false` for callers that only run agents (their tools are built per run).
	 */
	loadTools?: boolean;
	/**
	 * `throw` (default): one malformed `$fromAI` anywhere fails the load with a ToolBuildError
	 * listing every problem. `collect`: tools that build are returned and the problems listed
	 * in `problems` (what `toolbridge tools` shows).
	 */
	onBuildError?: 'throw' | 'collect';
	/**
	 * Serve the tools that can be served and list the others in `unavailable` (the CLI's
	 * `--skip-unavailable`); every agent of the session does the same and reports them to
	 * `onToolsUnavailable`. Default false: a tool that cannot be served fails the load (or the
	 * agent run) with an UnavailableToolsError naming every such tool.
	 */
	skipUnavailable?: boolean;
	/**
	 * Approves calls of tools behind an n8n human-review gate (a `…HitlTool` node), nested
	 * agents' included. Without it those calls are refused, never run unreviewed.
	 */
	review?: ToolReviewer;
	/** Time limit of each call of the opened tools, in ms (default the loop's, 120 s; 0: none). */
	toolTimeoutMs?: number;
	/**
	 * The output of nodes that do not run here, by node name (an item's JSON or an array of
	 * them), over the export's `pinData`: what `$('NODE')` reads in the agents' prompt, system
	 * message, tool descriptions and the expressions n8n's tool sub-nodes evaluate.
	 */
	pins?: Record<string, unknown>;

	// The output boundary and the network.

	/**
	 * Cap on every text a tool hands out — to a caller of the opened tools, their LangChain
	 * views, the model of an agent run — in characters; longer text is cut with an
	 * `[Output truncated …]` note. Default 20000 (`DEFAULT_MAX_OUTPUT_LENGTH`); `Infinity`
	 * turns the cap off. Secrets are always redacted: there is no switch for that.
	 */
	maxOutputLength?: number;
	/**
	 * Stands around every node run of the session, nested agents' tools included — e.g.
	 * `privateNetworkGuard()` of `n8n-toolbridge`, which refuses internal addresses for URLs
	 * the model chooses. None by default in this package (see docs/library.md).
	 */
	guard?: NodeRunGuard;

	// The model connection (agent runs, nested agents called as tools).

	/** Replaces the model the workflow names (of the outermost agent; nested agents keep theirs). */
	model?: string;
	/** The Chat Completions server for every agent; else the agent's credential, the environment, OpenRouter. */
	baseUrl?: string;
	/** The API key for every agent; else the agent's credential, then `OPENROUTER_API_KEY`. */
	apiKey?: string;

	// The run.

	/**
	 * Where conversations live between turns (see docs/conversations.md): the messages of a
	 * Simple Memory session, and every session's lock, so that a second process (a replica)
	 * sharing the store continues a conversation and two turns of one session never run at
	 * once. Default: one in-process store per process. Postgres, Redis … memories keep their
	 * messages in their own server; only their sessions' locks are here.
	 */
	conversationStore?: ConversationStore;
	signal?: AbortSignal;
	/** Emit `[DEBUG]` lines (secrets redacted), for every agent. Default: each node's "Debug Log" option. */
	debug?: boolean;
	/**
	 * Streaming text, model calls, tool steps and, with `debug`, `[DEBUG]` lines of the
	 * outermost agent; nested agents' `[DEBUG]` lines arrive prefixed with their path.
	 */
	onEvent?: AgentEventListener;
	/** Called when any agent run ends (nested ones first), with its whole usage. */
	onAgentEnd?: (info: { agentName: string; path: string[]; usage: Usage }) => void;
	/** Told, once per agent run, which tools `skipUnavailable` left out. */
	onToolsUnavailable?: (info: {
		agentName: string;
		path: string[];
		tools: UnavailableTool[];
	}) => void;
}
