import {
	runWorkflowAgent,
	AgentConfigurationError,
	type AgentEvent,
	type ValidatorWorkflowAgentRun,
	type WorkflowAgentRun,
} from 'n8n-nodes-toolbridge';
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

/** `toolbridge run <workflow.json> --prompt TEXT`: the workflow's agent, with its real tools, against a live model. */
export const runCommand: CliCommand = {
	name: 'run',
	summary: "run a workflow's agent with its tools against an OpenAI-compatible API",
	help: `Usage: toolbridge run <workflow.json> --prompt TEXT [--model M] [--base-url URL] [--api-key KEY] [--json]

Runs the agent of an n8n workflow export without an n8n server: an Agent Orchestrator
node with its model, system message and options, or n8n's AI Agent with its prompt,
system message and the model of its OpenRouter / OpenAI chat-model sub-node. The tools
connected to it run as the real n8n nodes. Prints the answer; a line per tool step goes
to stderr. The node reads --prompt as {{ $json.chatInput }} (the Chat Trigger's field).

Agent Orchestrator modes:
  full       the agent loop; prints the answer
  validator  one validated tool call: the model fills the arguments, errors go back to
             it until they pass (Max Attempts), then the tool runs once; prints the tool,
             arguments, result and attempts
  nested     an orchestrator connected to another agent's ai_tool input is a tool of that
             agent: when called it runs its own loop with its own tools and credential;
             its usage is part of the parent's (call one directly with "toolbridge call")

Tools behind an n8n human-review node (…HitlTool, e.g. Slack's "send and wait for
approval") ask on the terminal before each call; with stdin not a terminal they are
refused unless --approve-all is given.

Options:
  --prompt TEXT        the user's message
  --approve-all        run tools behind a review node without asking (scripts)
${connectionOptionsHelp}
${workflowOptionsHelp.replace('--json               machine-readable output', '--json               print { output, steps, usage, iterations }\n                       (validator: { tool, arguments, result, attempts })').replace('show stack traces', 'show stack traces and the [DEBUG] log (secrets redacted)')}

Exit codes: 0 answered, 1 the run failed (HTTP error, limit reached, validator attempts
used up), 2 usage or settings (no API key, no model, $fromAI problems).`,
	options: {
		...workflowOptions,
		...connectionOptions,
		prompt: { type: 'string' },
		'approve-all': { type: 'boolean' },
	},
	async run({ positionals, values, io }) {
		if (positionals.length !== 1)
			throw new UsageError(
				'Expected exactly one workflow file: toolbridge run <workflow.json> --prompt TEXT',
			);
		const prompt = (values.prompt as string | undefined) ?? '';
		const debug = values.debug === true;
		let stepNumber = 0;
		const onEvent = (event: AgentEvent): void => {
			if (event.type === 'step-end') io.stderr(`${stepProgressLine(event.step, ++stepNumber)}\n`);
			else if (event.type === 'debug') io.stderr(`${event.line}\n`);
		};
		let run: WorkflowAgentRun;
		try {
			run = await runWorkflowAgent(positionals[0], {
				...hostOptionsFrom(values, io.env, io.stderr),
				...connectionFrom(values, io.env),
				prompt,
				onEvent,
				onToolsUnavailable: ({ tools }) => io.stderr(skippedToolsText(tools)),
				review: terminalReviewer({
					input: process.stdin,
					write: io.stderr,
					approveAll: values['approve-all'] === true,
				}),
				debug: debug || undefined,
				onAgentEnd: debug
					? ({ path, usage }) =>
							io.stderr(
								`Agent "${path.join(' › ')}" used ${usage.totalTokens} tokens${usage.cost === undefined ? '' : `, cost ${usage.cost}`} (nested agents included)\n`,
							)
					: undefined,
			});
		} catch (error) {
			// Settings problems (no key, no model, bad URL) are the caller's to fix: exit 2.
			if (error instanceof AgentConfigurationError) throw new UsageError(error.message);
			throw error;
		}
		if (debug)
			io.stderr(
				`Agent "${run.agentNode.name}" (${run.agentNode.type}${run.mode === 'validator' ? ', validator mode' : ''}), model ${run.model} at ${run.baseUrl}, tools: ${run.tools.join(', ') || 'none'}\n`,
			);
		if (prompt !== '' && !run.prompt.includes(prompt)) {
			io.stderr(
				`Note: the prompt of "${run.agentNode.name}" does not read {{ $json.chatInput }}, so --prompt was not sent; it sent: ${run.prompt}\n`,
			);
		}
		if (run.mode === 'validator') {
			io.stdout(
				values.json ? `${JSON.stringify(validatorJson(run), null, 2)}\n` : validatorText(run),
			);
			return EXIT.ok;
		}
		const { output, steps, usage, iterations } = run.result;
		io.stdout(
			values.json
				? `${JSON.stringify({ output, steps, usage, iterations }, null, 2)}\n`
				: `${output}\n`,
		);
		return EXIT.ok;
	},
};

/** The node's output item of a validator run: `{ tool, arguments, result, attempts }` (+ usage and attempt log with "Return Intermediate Steps"). */
function validatorJson(run: ValidatorWorkflowAgentRun): Record<string, unknown> {
	const { tool, arguments: args, result, attempts, attemptLog, usage } = run.validator;
	const json: Record<string, unknown> = { tool, arguments: args };
	if (result !== undefined) json.result = result;
	json.attempts = attempts;
	if (run.returnIntermediateSteps) Object.assign(json, { usage, attemptLog });
	return json;
}

function validatorText(run: ValidatorWorkflowAgentRun): string {
	const { tool, arguments: args, result, attempts } = run.validator;
	const shown =
		result === undefined
			? 'not run (Validate Only)'
			: typeof result === 'string'
				? result
				: JSON.stringify(result);
	return `Tool: ${tool}\nArguments: ${JSON.stringify(args)}\nResult: ${shown}\nAttempts: ${attempts}\n`;
}
