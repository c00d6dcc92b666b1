import { AgentConfigurationError } from '../errors/agent-configuration-error';
import type { AgentResult, AgentState } from './agent-state';
import type { AgentEvent, AgentEventListener } from './agent-event';
import type { AgentTool } from '../tools/agent-tool';
import { advanceAgent } from './advance-agent';
import type { CallModel } from './call-model-step';
import { applyToolResults } from './apply-tool-results';
import { createAgentState, type AgentInput } from './create-agent-state';
import { withCallerServer } from './model-options';
import { debugLines } from './debug-log';
import { OutputBoundary, type OutputBoundaryOptions } from './output-boundary';
import { runToolCall } from './run-tool-call';
import { runWithConcurrency } from './run-with-concurrency';
import { withRunTimeLimits } from './time-limits/default-time-limits';

/**
 * Options of the in-process driver. `secrets` (or a host's `redactor`) and
 * `maxOutputLength` set the run's {@link OutputBoundary}: what the model, the state, the
 * events and the debug log get from tools and failures.
 */
export interface RunAgentOptions extends OutputBoundaryOptions {
	/** A state to resume (e.g. one persisted between steps); or give `input`. */
	state?: AgentState;
	/** What a new run starts from; its tools are those of `tools`. */
	input?: Omit<AgentInput, 'tools'>;
	/** The tool implementations, matched to the state's tools by name. */
	tools: AgentTool[];
	callModel: CallModel;
	signal?: AbortSignal;
	onEvent?: AgentEventListener;
	/** Called with every new state: persist it to resume later. */
	onState?: (state: AgentState) => void;
	/** How many tool calls of one turn run at once (default 4). */
	concurrency?: number;
	/** Emit `debug` events with `[DEBUG]` lines. */
	debug?: boolean;
	/**
	 * Time limit per tool call in ms (default 120000; 0 = none): the call's signal aborts and
	 * the model reads a timeout observation at once.
	 */
	toolTimeoutMs?: number;
	/**
	 * Time limit for the whole run in ms (default 600000; 0 = none): the run stops as
	 * `aborted` ("exceeded its time limit") at the deadline, even while a tool still runs.
	 */
	runTimeoutMs?: number;
}

/** A finished run: its last state and its result. */
export interface AgentRunOutcome {
	state: AgentState;
	result: AgentResult;
}

/**
 * The in-process driver: steps a state through model calls and tool runs until it is
 * done, running each turn's tools concurrently (results in call order).
 *
 * When `signal` aborts or the run's time limit runs out, the run ends at once, also while
 * tools run: their calls get a "stopped" error observation (their signal aborts; a tool that
 * ignores it is abandoned and its late result dropped), calls not yet started never start,
 * and the run fails as `aborted`.
 *
 * @throws {AgentStoppedError} when a limit stops the run with the "error" behaviour, the
 * forced final answer is empty, or `signal` aborts it (reason `aborted`).
 * @throws the model call's own error (e.g. the chat client's ApiCallError), its secrets
 * redacted, when a model call fails; the state passed to `onState` is then failed with `model-error`.
 * @throws {AgentConfigurationError} from `createAgentState` for a bad `input`, or when neither state nor input is given.
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentRunOutcome> {
	return withRunTimeLimits('runAgent', options, runAgentLoop);
}

async function runAgentLoop(options: RunAgentOptions): Promise<AgentRunOutcome> {
	const { tools, signal } = options;
	const emit = (event: AgentEvent): void => options.onEvent?.(event);
	const boundary = new OutputBoundary(options);
	// Lines are built only when asked for: with debug off a step costs no string building.
	const debug = (line: () => string): void => {
		if (options.debug) emit({ type: 'debug', line: boundary.line(line()) });
	};
	const byName = new Map(tools.map((tool) => [tool.name, tool]));
	const concurrency = options.concurrency ?? 4;

	let state = options.state ?? createAgentState(inputFor(options));
	const update = (next: AgentState): void => {
		state = next;
		options.onState?.(state);
	};
	if (options.debug) for (const line of debugLines.start(state)) debug(() => line);

	for (;;) {
		const { action } = await advanceAgent(state, {
			callModel: options.callModel,
			signal,
			emit,
			debug,
			onState: update,
			boundary,
		});
		if (action.type === 'done') return { state, result: action.result };
		if (action.type === 'failed') throw action.error;
		const iteration = state.iterations;
		const stepsBefore = state.steps.length;
		const results = await runWithConcurrency(action.calls, concurrency, async (call) => {
			debug(() => debugLines.toolStart(call));
			emit({ type: 'step-start', iteration, call });
			return runToolCall(byName.get(call.name), call, { signal, boundary });
		});
		update(applyToolResults(state, results));
		for (const step of state.steps.slice(stepsBefore)) {
			const ran = results.some((result) => result.toolCallId === step.toolCallId);
			debug(() => (ran ? debugLines.toolEnd(step) : debugLines.refused(step)));
			emit({ type: 'step-end', step });
		}
	}
}

function requireInput(input: RunAgentOptions['input']): Omit<AgentInput, 'tools'> {
	if (!input)
		throw new AgentConfigurationError(
			'input',
			'runAgent needs a state to resume or an input to start from.',
		);
	return input;
}

/** The run's input, its config built for the caller's server when it names none. */
function inputFor(options: RunAgentOptions): AgentInput {
	const input = requireInput(options.input);
	return {
		...input,
		config: withCallerServer(input.config, options.callModel),
		tools: options.tools,
	};
}
