import type { AgentEvent } from './agent-event';
import type { AgentState } from './agent-state';
import { applyModelTurn } from './apply-model-turn';
import { callModelStep } from './call-model-step';
import { debugLines } from './debug-log';
import { nextAction, type AgentAction } from './next-action';
import type { OutputBoundary } from './output-boundary';
import type { CallModel } from './call-model-step';
import { abortAgent, abortReason, failAgent } from './stop-agent';

/** What {@link advanceAgent} needs from its driver. */
export interface AdvanceAgentOptions {
	callModel: CallModel;
	signal?: AbortSignal;
	emit: (event: AgentEvent) => void;
	/**
	 * Receives `[DEBUG]` lines, unredacted, as thunks: a line is built only when the driver
	 * calls it, so with the debug log off a step builds no strings.
	 */
	debug?: (line: () => string) => void;
	/** Called with every new state. */
	onState?: (state: AgentState) => void;
	/** The run's output boundary: a failed model call's error is redacted before it is recorded and thrown. */
	boundary?: OutputBoundary;
}

/** Where {@link advanceAgent} stopped: the state and the action it now asks for. */
export interface AdvancedAgent {
	state: AgentState;
	action: Exclude<AgentAction, { type: 'call-model' }>;
}

/**
 * The model half of every agent driver: steps a state through model calls until it needs
 * tools, is done, or failed, and returns that action with the state, so the driver never
 * computes it again. Checks the signal before each call; an aborted call ends the run as
 * `aborted`.
 *
 * @throws the model call's own error (e.g. ApiCallError), redacted by `boundary`, when a
 * model call fails; the state is failed with `model-error` (and passed to `onState`) first.
 */
export async function advanceAgent(
	start: AgentState,
	options: AdvanceAgentOptions,
): Promise<AdvancedAgent> {
	const { signal } = options;
	const debug = options.debug ?? (() => undefined);
	let state = start;
	const update = (next: AgentState): void => {
		state = next;
		options.onState?.(state);
	};
	for (;;) {
		if (signal?.aborted) update(abortAgent(state, abortReason(signal)));
		const action = nextAction(state);
		if (action.type === 'run-tools') return { state, action };
		if (action.type === 'done' || action.type === 'failed') {
			debug(() => debugLines.end(state));
			return { state, action };
		}
		debug(() => debugLines.iteration(state, action.final));
		let turn;
		try {
			turn = await callModelStep(
				action.request,
				{
					iteration: state.iterations + 1,
					final: action.final,
					fallbackModels: state.config.fallbackModels,
				},
				options,
			);
		} catch (error) {
			if (signal?.aborted) {
				update(abortAgent(state, abortReason(signal)));
				continue;
			}
			const failure = options.boundary ? options.boundary.error(error) : error;
			update(
				failAgent(state, {
					code: 'model-error',
					message: (failure as Error)?.message ?? String(failure),
				}),
			);
			debug(() => debugLines.end(state));
			throw failure;
		}
		debug(() => debugLines.response(turn));
		const stepsBefore = state.steps.length;
		update(applyModelTurn(state, turn));
		for (const step of state.steps.slice(stepsBefore)) {
			debug(() => debugLines.refused(step));
			options.emit({ type: 'step-end', step });
		}
	}
}
