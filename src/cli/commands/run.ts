import type { AgentEvent } from '../../agent/agent-event';
import { runWorkflowAgent, type WorkflowAgentRun } from '../../agent/run-workflow-agent';
import { AgentConfigurationError } from '../../errors/agent-configuration-error';
import { EXIT, type CliCommand } from '../cli-command';
import { hostOptionsFrom, workflowOptions, workflowOptionsHelp } from '../host-options';
import { stepProgressLine } from '../step-progress-line';
import { UsageError } from '../usage-error';

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

Options:
  --prompt TEXT        the user's message
  --model M            use this model instead of the workflow's
  --base-url URL       the Chat Completions server; else the url of the agent's
                       credential (--credentials), OPENAI_BASE_URL, OPENROUTER_BASE_URL,
                       then OpenRouter
  --api-key KEY        else the agent's credential (--credentials), else OPENROUTER_API_KEY;
                       not needed for a server on localhost
${workflowOptionsHelp.replace('--json               machine-readable output', '--json               print { output, steps, usage, iterations }').replace('show stack traces', 'show stack traces and the [DEBUG] log (API keys redacted)')}

Exit codes: 0 answered, 1 the run failed (HTTP error, limit reached), 2 usage or settings
(no API key, no model, $fromAI problems).`,
	options: {
		...workflowOptions,
		prompt: { type: 'string' },
		model: { type: 'string' },
		'base-url': { type: 'string' },
		'api-key': { type: 'string' },
	},
	async run({ positionals, values, io }) {
		if (positionals.length !== 1) throw new UsageError('Expected exactly one workflow file: toolbridge run <workflow.json> --prompt TEXT');
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
				...hostOptionsFrom(values, io.env),
				prompt,
				model: values.model as string | undefined,
				baseUrl: values['base-url'] as string | undefined,
				apiKey: values['api-key'] as string | undefined,
				onEvent,
				debug: debug || undefined,
			});
		} catch (error) {
			// Settings problems (no key, no model, bad URL) are the caller's to fix: exit 2.
			if (error instanceof AgentConfigurationError) throw new UsageError(error.message);
			throw error;
		}
		if (debug) io.stderr(`Agent "${run.agentNode.name}" (${run.agentNode.type}), model ${run.model} at ${run.baseUrl}, tools: ${run.tools.join(', ') || 'none'}\n`);
		if (prompt !== '' && !run.prompt.includes(prompt)) {
			io.stderr(`Note: the prompt of "${run.agentNode.name}" does not read {{ $json.chatInput }}, so --prompt was not sent; it sent: ${run.prompt}\n`);
		}
		const { output, steps, usage, iterations } = run.result;
		io.stdout(values.json ? `${JSON.stringify({ output, steps, usage, iterations }, null, 2)}\n` : `${output}\n`);
		return EXIT.ok;
	},
};
