import {
	loadWorkflowTools,
	readWorkflowInput,
	StandaloneHost,
	ToolBuildError,
	UnavailableToolsError,
	type AgentTool,
	type JsonSchema,
	type ToolBuildProblem,
	type UnavailableTool,
	type WorkflowTools,
} from 'n8n-nodes-toolbridge';
import { EXIT, type CliCommand } from '../cli-command';
import {
	agentsToServe,
	hostOptionsFrom,
	skippedToolsText,
	workflowOptions,
	workflowOptionsHelp,
} from '../host-options';
import { UsageError } from '../../errors/usage-error';

function typeOf(property: JsonSchema): string {
	if (typeof property.type === 'string') return property.type;
	if (Array.isArray(property.anyOf)) return 'json';
	return 'any';
}

function describeTool(tool: AgentTool): string {
	const nodeType = tool.nestedAgent ? `${tool.nodeType}, nested agent` : String(tool.nodeType);
	const properties = Object.entries(tool.parameters.properties ?? {});
	const required = new Set(tool.parameters.required ?? []);
	const lines = [
		`${tool.name}  (node "${tool.sourceNodeName}", ${nodeType})`,
		`  ${tool.description}`,
	];
	if (properties.length === 0) lines.push('  (no arguments)');
	const width = Math.max(0, ...properties.map(([key]) => key.length));
	for (const [key, property] of properties) {
		const presence = required.has(key)
			? 'required'
			: property.default === undefined
				? 'optional'
				: `default ${JSON.stringify(property.default)}`;
		const description = property.description ? `  ${property.description}` : '';
		lines.push(`  ${key.padEnd(width)}  ${typeOf(property).padEnd(7)}  ${presence}${description}`);
	}
	return lines.join('\n');
}

/** One agent's part of `toolbridge tools --json`. */
interface AgentToolsJson {
	agent: string;
	type: string;
	tools: Array<
		Pick<AgentTool, 'name' | 'description' | 'parameters'> & { node?: string; nodeType?: string }
	>;
	/** Tool nodes left out with --skip-unavailable, and why. */
	skipped: UnavailableTool[];
	/** `$fromAI` problems of nodes left out. */
	problems: ToolBuildProblem[];
}

function agentJson(loaded: WorkflowTools): AgentToolsJson {
	return {
		agent: loaded.agentNode.name,
		type: loaded.agentNode.type,
		tools: loaded.tools.map(({ name, description, parameters, sourceNodeName, nodeType }) => ({
			name,
			description,
			parameters,
			node: sourceNodeName,
			nodeType,
		})),
		skipped: loaded.unavailable,
		problems: loaded.problems,
	};
}

function agentText(loaded: WorkflowTools): string {
	const { agentNode, tools } = loaded;
	const header = `Agent "${agentNode.name}" (${agentNode.type}): ${tools.length} tool${tools.length === 1 ? '' : 's'}`;
	return [header, ...tools.map(describeTool)].join('\n\n');
}

/** `toolbridge tools <workflow.json>`: the tools the agents would see. */
export const toolsCommand: CliCommand = {
	name: 'tools',
	summary: 'list the tools the agents of a workflow would see',
	help: `Usage: toolbridge tools <workflow.json> [--agent NAME] [--skip-unavailable] [--json]

Lists the tools of every agent in an n8n workflow export (or of --agent NAME), grouped by
agent: every node connected to an agent's ai_tool input, with the name, description and
arguments the model receives — from the node's $fromAI markers, or, for n8n's tool
sub-nodes (Calculator, HTTP Request Tool, Vector Store Tool, MCP Client Tool …), from what
the node itself supplies, exactly as n8n's AI Agent gets it. A nested Agent Orchestrator
or n8n AI Agent Tool is listed as a tool of its parent (arguments from its prompt's
$fromAI); list its own tools with --agent NAME.

A tool that cannot be served (its package not installed, its kind not supported outside
n8n, its node failing to supply it) is an error naming every such tool and the command
that installs missing packages (exit 2); --skip-unavailable lists the others and reports
the skipped ones on stderr (and under "skipped" with --json). $fromAI problems are listed
per node with parameter path and position; the exit code is then 2.

--json prints { "agents": [ { "agent", "type", "tools": [ { "name", "description",
"parameters", "node", "nodeType" } ], "skipped", "problems" } ] }.

Options:
${workflowOptionsHelp}`,
	options: workflowOptions,
	async run({ positionals, values, io }) {
		if (positionals.length !== 1)
			throw new UsageError('Expected exactly one workflow file: toolbridge tools <workflow.json>');
		const workflow = readWorkflowInput(positionals[0]);
		const agents = agentsToServe(workflow, values.agent as string | undefined);
		const options = hostOptionsFrom(values, io.env, io.stderr);
		const host = await StandaloneHost.create(options);
		const loaded: WorkflowTools[] = [];
		try {
			for (const agent of agents) {
				// Every agent is loaded before anything is refused, so the error names every unavailable tool.
				loaded.push(
					await loadWorkflowTools(workflow, {
						...options,
						host,
						agent,
						onBuildError: 'collect',
						skipUnavailable: true,
					}),
				);
			}
		} finally {
			await Promise.all(loaded.map((each) => each.close()));
		}
		const unavailable = loaded.flatMap((each) => each.unavailable);
		if (unavailable.length > 0 && !options.skipUnavailable)
			throw new UnavailableToolsError(unavailable, host.installCommandFor(unavailable));
		io.stdout(
			values.json
				? `${JSON.stringify({ agents: loaded.map(agentJson) }, null, 2)}\n`
				: `${loaded.map(agentText).join('\n\n')}\n`,
		);
		if (unavailable.length > 0) io.stderr(skippedToolsText(unavailable));
		const problems = loaded.flatMap((each) => each.problems);
		if (problems.length === 0) return EXIT.ok;
		io.stderr(
			`\n$fromAI problems (these nodes are not tools until fixed):\n${ToolBuildError.describe(problems).replace(/^/gm, '  ')}\n`,
		);
		return EXIT.usage;
	},
};
