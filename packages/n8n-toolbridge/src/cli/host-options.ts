import {
	findAgentNames,
	selectAgent,
	type LoadWorkflowToolsOptions,
	type UnavailableTool,
	type WorkflowExport,
} from 'n8n-nodes-toolbridge';
import { agentInputsFrom } from './agent-input-options';
import { ownNodeTypes } from './own-node-types';
import { connectionOptions, workflowOptions } from './option-specs';

export { connectionOptions, workflowOptions };

/** Help lines for {@link workflowOptions}. */
export const workflowOptionsHelp = `  --agent NAME         the agent node, when several nodes have tools connected
  --package DIR        also load node types from this package folder (repeatable);
                       TOOLBRIDGE_PACKAGE_DIRS adds more (path-list)
  --credentials FILE   JSON object of credentials keyed by credential name or type;
                       TOOLBRIDGE_CREDENTIALS (JSON) / TOOLBRIDGE_CREDENTIALS_FILE also work
  --workflows DIR      exported workflows that sub-workflow calls (Call n8n Workflow
                       Tool, Execute Workflow) find by id, then by name
  --skip-unavailable   serve the tools that can be served; the others (package not
                       installed, node kind not supported, node failing to supply its
                       tool) are reported on stderr instead of failing (exit 2)
  --pin NODE=JSON      the output of node NODE, which does not run here: what
                       $('NODE').item.json… reads in the agent's prompt, system message
                       and tool descriptions (an item's JSON or an array of items; @FILE
                       reads a file; repeatable); over the export's pinData
  --json               machine-readable output
  --debug              show stack traces`;

/**
 * Turns the parsed flags into options of `loadWorkflowTools`; the host's notices (what it had
 * to guess) go to `stderr`, one line each.
 * @throws {UsageError} for a bad `--pin`.
 */
export function hostOptionsFrom(
	values: Record<string, unknown>,
	env: NodeJS.ProcessEnv,
	stderr?: (text: string) => void,
): LoadWorkflowToolsOptions {
	const fromEnv = (env.TOOLBRIDGE_PACKAGE_DIRS ?? '')
		.split(process.platform === 'win32' ? ';' : ':')
		.filter(Boolean);
	return {
		agent: values.agent as string | undefined,
		packageDirs: [...((values.package as string[] | undefined) ?? []), ...fromEnv],
		credentialsFile: values.credentials as string | undefined,
		workflows: values.workflows as string | undefined,
		onNotice: stderr && ((message) => stderr(`Note: ${message}\n`)),
		skipUnavailable: values['skip-unavailable'] === true,
		pins: agentInputsFrom(values).pins,
		env,
		nodeTypes: ownNodeTypes,
	};
}

/** Help lines for {@link connectionOptions}. */
export const connectionOptionsHelp = `  --model M            use this model instead of the workflow's (the outermost agent's)
  --base-url URL       the Chat Completions server, for every agent; else the url of the
                       agent's credential (--credentials), OPENAI_BASE_URL,
                       OPENROUTER_BASE_URL, then OpenRouter
  --api-key KEY        else the agent's credential (--credentials), else OPENROUTER_API_KEY;
                       not needed for a server on localhost`;

/** The connection flags as `runWorkflowAgent` / session options. */
export function connectionFrom(
	values: Record<string, unknown>,
	env: NodeJS.ProcessEnv,
): { model?: string; baseUrl?: string; apiKey?: string; env: NodeJS.ProcessEnv } {
	return {
		model: values.model as string | undefined,
		baseUrl: values['base-url'] as string | undefined,
		apiKey: values['api-key'] as string | undefined,
		env,
	};
}

/** The stderr report of the tools `--skip-unavailable` left out: one line per tool, under its agent. */
export function skippedToolsText(tools: readonly UnavailableTool[]): string {
	const lines = tools.map((tool) => `  - agent "${tool.agentName}": ${tool.message}`);
	return `Skipped ${tools.length} tool${tools.length === 1 ? '' : 's'} that cannot be served (--skip-unavailable):\n${lines.join('\n')}\n`;
}

/**
 * The agents a command serves: the one `--agent` names, else every top-level agent.
 * @throws AgentNotFoundError when `--agent` names no agent, or the workflow has none.
 */
export function agentsToServe(workflow: WorkflowExport, agent: string | undefined): string[] {
	if (agent !== undefined) return [selectAgent(workflow, agent).name];
	const agents = findAgentNames(workflow);
	if (agents.length === 0) selectAgent(workflow); // throws AgentNotFoundError with the usual message
	return agents;
}
