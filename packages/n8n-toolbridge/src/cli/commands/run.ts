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
import { agentInputOptions, agentInputOptionsHelp, agentInputsFrom } from '../agent-input-options';
import { stepProgressLine } from '../step-progress-line';
import { terminalReviewer } from '../terminal-reviewer';
import { UsageError } from '../../errors/usage-error';
import {
	conversationStoreFrom,
	defaultSessionStoreFolder,
	sessionIdFrom,
	storeOptionHelp,
	storeOptions,
} from '../store-options';

/** `toolbridge run <workflow.json> --prompt TEXT`: the workflow's agent, with its real tools, against a live model. */
export const runCommand: CliCommand = {
	name: 'run',
	summary: "run a workflow's agent with its tools against an OpenAI-compatible API",
	help: `Usage: toolbridge run <workflow.json> --prompt TEXT [--input JSON] [--pin NODE=JSON]… [--model M] [--json]

Runs the agent of an n8n workflow export without an n8n server: an Agent Orchestrator
node with its model, system message and options, or n8n's AI Agent with its prompt,
system message and the model of its OpenRouter / OpenAI chat-model sub-node. The tools
connected to it run as the real n8n nodes. Prints the answer; a line per tool step goes
to stderr. An agent with no tools runs too.

--prompt is the user message, whatever the node's prompt reads: a prompt that wraps
{{ $json.chatInput }} ("Answer this: {{ $json.chatInput }}") keeps its wrapping; a
prompt that reads other data ({{ $json.body.message }}, $('Telegram Trigger')…) is
replaced by --prompt (a note on stderr says so). The node's own prompt is sent when
you give what it reads (--input, or a --pin of a node it names) or no --prompt.

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
${agentInputOptionsHelp}
  --approve-all        run tools behind a review node without asking (scripts)
  --session ID         continue conversation ID: the agent's memory sub-node (Simple
                       Memory …) loads its earlier turns and saves this one; two runs
                       with one ID continue one conversation (without --store, kept in
                       ~/.cache/toolbridge/sessions; TOOLBRIDGE_CACHE_DIR moves it)
${storeOptionHelp}
${connectionOptionsHelp}
${workflowOptionsHelp.replace('--json               machine-readable output', '--json               print { output, steps, usage, iterations }\n                       (validator: { tool, arguments, result, attempts })').replace('show stack traces', 'show stack traces and the [DEBUG] log (secrets redacted)')}

Exit codes: 0 answered, 1 the run failed (HTTP error, limit reached, validator attempts
used up), 2 usage or settings (no API key, no model, $fromAI problems).`,
	options: {
		...workflowOptions,
		...connectionOptions,
		...agentInputOptions,
		...storeOptions,
		prompt: { type: 'string' },
		'approve-all': { type: 'boolean' },
		session: { type: 'string' },
	},
	async run({ positionals, values, io }) {
		if (positionals.length !== 1)
			throw new UsageError(
				'Expected exactly one workflow file: toolbridge run <workflow.json> --prompt TEXT',
			);
		const prompt = (values.prompt as string | undefined) ?? '';
		const inputs = agentInputsFrom(values);
		const debug = values.debug === true;
		let stepNumber = 0;
		const onEvent = (event: AgentEvent): void => {
			if (event.type === 'step-end') io.stderr(`${stepProgressLine(event.step, ++stepNumber)}\n`);
			else if (event.type === 'debug') io.stderr(`${event.line}\n`);
		};
		const sessionId = sessionIdFrom(values);
		const conversationStore = await conversationStoreFrom(
			values,
			sessionId === undefined ? undefined : defaultSessionStoreFolder(io.env),
		);
		let run: WorkflowAgentRun;
		try {
			run = await runWorkflowAgent(positionals[0], {
				...hostOptionsFrom(values, io.env, io.stderr),
				...connectionFrom(values, io.env),
				prompt,
				input: inputs.input,
				sessionId,
				conversationStore,
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
			// Settings problems (no key, no model, bad URL) are the caller's to fix: exit 2 (an unresolved reference too, by its code).
			if (error instanceof AgentConfigurationError) throw new UsageError(error.message);
			throw error;
		} finally {
			await conversationStore.close?.();
		}
		if (debug)
			io.stderr(
				`Agent "${run.agentNode.name}" (${run.agentNode.type}${run.mode === 'validator' ? ', validator mode' : ''}), model ${run.model} ${run.baseUrl !== undefined ? `at ${run.baseUrl}` : `from its node "${run.modelNode?.name ?? ''}" (${run.modelNode?.type ?? ''})`}, tools: ${run.tools.join(', ') || 'none'}\n`,
			);
		const note = userMessageNote(run, prompt);
		if (note) io.stderr(`Note: ${note}\n`);
		if (run.mode === 'validator') {
			io.stdout(
				values.json ? `${JSON.stringify(validatorJson(run), null, 2)}\n` : validatorText(run),
			);
			return EXIT.ok;
		}
		const { output, object, steps, usage, iterations } = run.result;
		// An agent with an output parser (or output format JSON) answered a value: --json prints the value itself.
		io.stdout(
			values.json
				? `${JSON.stringify({ output: object !== undefined ? object : output, steps, usage, iterations }, null, 2)}\n`
				: `${output}\n`,
		);
		return EXIT.ok;
	},
};

/** What stderr says about the user message when it is not simply --prompt: replaced, or the node's own prompt. */
function userMessageNote(run: WorkflowAgentRun, prompt: string): string | undefined {
	const { userMessage } = run;
	const name = run.agentNode.name;
	const template = JSON.stringify(userMessage.template ?? '');
	switch (userMessage.reason) {
		case 'user-text':
			return `the prompt of "${name}" is ${template}, which does not read {{ $json.chatInput }}: --prompt was sent as the user message instead. To send the node's own prompt, give what it reads: --input JSON (its input item) and --pin NODE=JSON (other nodes' output).`;
		case 'no-user-text':
			return `no --prompt: sent the node's own prompt of "${name}": ${run.prompt}`;
		case 'input':
		case 'pin':
			return run.prompt.includes(prompt)
				? undefined
				: `sent the node's own prompt of "${name}" over ${userMessage.reason === 'input' ? '--input' : '--pin'} (it does not read --prompt): ${run.prompt}`;
		default:
			return undefined;
	}
}

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
