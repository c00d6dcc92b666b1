import { openWorkflowSession, type AgentEvent, type Usage } from 'n8n-nodes-toolbridge';
import { EXIT, type CliCommand } from '../cli-command';
import {
	connectionFrom,
	connectionOptions,
	connectionOptionsHelp,
	hostOptionsFrom,
	skippedToolsText,
	workflowOptions,
	workflowOptionsHelp,
} from '../host-options';
import { stepProgressLine } from '../step-progress-line';
import { terminalReviewer } from '../terminal-reviewer';
import { UsageError } from '../../errors/usage-error';

function parseArgsJson(text: string | undefined): Record<string, unknown> {
	if (text === undefined) return {};
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`);
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		throw new UsageError('--args must be a JSON object, e.g. --args \'{"text":"hello"}\'');
	return value as Record<string, unknown>;
}

/** `toolbridge call <workflow.json> <tool> --args '<json>'`: one tool call, as the agent makes it. */
export const callCommand: CliCommand = {
	name: 'call',
	summary: 'call one tool of a workflow and print what the model would read',
	help: `Usage: toolbridge call <workflow.json> <tool> --args '<json>' [--credentials FILE] [--json]

Executes one tool exactly as the agent would: the arguments are validated (with lenient
coercion) against the tool's schema, put into the node's $fromAI parameters, and the real
n8n node runs through n8n-core; an n8n tool sub-node (Calculator, HTTP Request Tool …)
answers through the tool its own code supplies. Prints what the model would read (credentials redacted,
long text cut). <tool> is the tool name (see "toolbridge tools") or the node name. Exit
code 1 when the call returns an error.

A nested Agent Orchestrator is called the same way (--args '{"task":"…"}'): it runs its
own agent loop with its own tools against a model, so the model options apply (a line per
tool step on stderr; --json adds its usage).

A tool behind an n8n human-review node (…HitlTool) asks on the terminal before it runs;
with stdin not a terminal it is refused unless --approve-all is given.

Options:
  --args JSON          the tool arguments, a JSON object (default {})
  --approve-all        run a tool behind a review node without asking (scripts)
${connectionOptionsHelp}
${workflowOptionsHelp.replace('show stack traces', "show stack traces and a nested agent's [DEBUG] log")}`,
	options: {
		...workflowOptions,
		...connectionOptions,
		args: { type: 'string' },
		'approve-all': { type: 'boolean' },
	},
	async run({ positionals, values, io }) {
		if (positionals.length !== 2)
			throw new UsageError(
				"Expected a workflow file and a tool name: toolbridge call <workflow.json> <tool> --args '<json>'",
			);
		const args = parseArgsJson(values.args as string | undefined);
		const [file, toolName] = positionals;
		let stepNumber = 0;
		let usage: Usage | undefined;
		// What the model would read: the session's boundary (secrets redacted, text capped) and the
		// loop's default tool time limit (120 s), so a hanging node does not hang the CLI.
		const session = await openWorkflowSession(file, {
			...hostOptionsFrom(values, io.env, io.stderr),
			...connectionFrom(values, io.env),
			debug: values.debug === true || undefined,
			review: terminalReviewer({
				input: process.stdin,
				write: io.stderr,
				approveAll: values['approve-all'] === true,
			}),
			onEvent: (event: AgentEvent) => {
				if (event.type === 'step-end') io.stderr(`${stepProgressLine(event.step, ++stepNumber)}\n`);
				else if (event.type === 'debug') io.stderr(`${event.line}\n`);
			},
			onAgentEnd: (end) => {
				if (end.path.length === 1) usage = end.usage;
			},
		});
		if (session.unavailable.length > 0) io.stderr(skippedToolsText(session.unavailable));
		const tool = session.findTool(toolName);
		if (!tool) {
			await session.close();
			throw new UsageError(
				`No tool "${toolName}". Available tools: ${session.tools.map((candidate) => candidate.name).join(', ') || 'none'}.`,
			);
		}
		const observation = await tool
			.invoke(args, { toolCallId: 'toolbridge-cli' })
			.finally(() => session.close());
		if (values.json) {
			const printed = {
				tool: tool.name,
				isError: observation.isError,
				content: observation.content,
				data: observation.data,
				// Images and sounds the node returned (base64, bounded like the MCP content).
				...(observation.attachments ? { attachments: observation.attachments } : {}),
				usage,
			};
			io.stdout(`${JSON.stringify(printed, null, 2)}\n`);
		} else {
			(observation.isError ? io.stderr : io.stdout)(`${observation.content}\n`);
		}
		return observation.isError ? EXIT.runtimeError : EXIT.ok;
	},
};
