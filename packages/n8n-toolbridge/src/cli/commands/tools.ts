import {
	ToolBuildError,
	loadWorkflowTools,
	type AgentTool,
	type JsonSchema,
} from 'n8n-nodes-toolbridge';
import { EXIT, type CliCommand } from '../cli-command';
import { hostOptionsFrom, workflowOptions, workflowOptionsHelp } from '../host-options';
import { UsageError } from '../usage-error';

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
		const presence = required.has(key) ? 'required' : `default ${JSON.stringify(property.default)}`;
		const description = property.description ? `  ${property.description}` : '';
		lines.push(`  ${key.padEnd(width)}  ${typeOf(property).padEnd(7)}  ${presence}${description}`);
	}
	return lines.join('\n');
}

/** `toolbridge tools <workflow.json>`: the tools the agent would see. */
export const toolsCommand: CliCommand = {
	name: 'tools',
	summary: 'list the tools an agent of a workflow would see',
	help: `Usage: toolbridge tools <workflow.json> [--agent NAME] [--json]

Lists the tools of the agent in an n8n workflow export: every node connected to the
agent's ai_tool input, with the name, description and arguments (from $fromAI) the
model receives. A nested Agent Orchestrator is listed as a tool of its parent (arguments
from its prompt's $fromAI); list its own tools with --agent NAME. $fromAI problems are
listed per node with parameter path and position; the exit code is then 2.

Options:
${workflowOptionsHelp}`,
	options: workflowOptions,
	async run({ positionals, values, io }) {
		if (positionals.length !== 1)
			throw new UsageError('Expected exactly one workflow file: toolbridge tools <workflow.json>');
		const loaded = await loadWorkflowTools(positionals[0], {
			...hostOptionsFrom(values, io.env, io.stderr),
			onBuildError: 'collect',
		});
		if (values.json) {
			io.stdout(
				`${JSON.stringify(
					loaded.tools.map(({ name, description, parameters }) => ({
						name,
						description,
						parameters,
					})),
					null,
					2,
				)}\n`,
			);
		} else {
			const { agentNode, tools } = loaded;
			const header = `Agent "${agentNode.name}" (${agentNode.type}): ${tools.length} tool${tools.length === 1 ? '' : 's'}`;
			io.stdout(`${[header, ...tools.map(describeTool)].join('\n\n')}\n`);
		}
		if (loaded.problems.length === 0) return EXIT.ok;
		io.stderr(
			`\n$fromAI problems (these nodes are not tools until fixed):\n${ToolBuildError.describe(loaded.problems).replace(/^/gm, '  ')}\n`,
		);
		return EXIT.usage;
	},
};
