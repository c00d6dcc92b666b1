import { forwardStreamPart, type AgentEvent } from './agent-event';
import type { AgentState } from './agent-state';
import { applyModelTurn } from './apply-model-turn';
import { debugLines } from './debug-log';
import { nextAction } from './next-action';
import type { CallModel } from './run-agent';
import { abortAgent, abortReason, failAgent } from './stop-agent';

/** What {@link advanceAgent} needs from its driver. */
export interface AdvanceAgentOptions {
	callModel: CallModel;
	signal?: AbortSignal;
	emit: (event: AgentEvent) => void;
	/** Receives unredacted `[DEBUG]` lines; the caller redacts and stores them. */
	debug: (line: string) => void;
}

/**
 * Steps a state through model calls until it needs tools (`awaiting-tools`), is done, or
 * failed — the model-call half of the in-process driver (`runAgent`), with the same
 * events, debug lines and abort handling, for drivers that run tools elsewhere.
 *
 * @throws the model call's own error (e.g. ApiCallError) when a model call fails; the
 * state is failed with `model-error` first and reported through `debug`.
 */
export async function advanceAgent(start: AgentState, options: AdvanceAgentOptions): Promise<AgentState> {
	const { callModel, signal, emit, debug } = options;
	let state = start;
	for (;;) {
		if (signal?.aborted) state = abortAgent(state, abortReason(signal));
		const action = nextAction(state);
		if (action.type === 'run-tools') return state;
		if (action.type === 'done' || action.type === 'failed') {
			debug(debugLines.end(state));
			return state;
		}
		debug(debugLines.iteration(state, action.final));
		emit({ type: 'model-call-start', iteration: state.iterations + 1, final: action.final, request: action.request });
		let turn;
		try {
			turn = await callModel(action.request, {
				signal,
				onPart: (part) => forwardStreamPart(part, emit),
			});
		} catch (error) {
			if (signal?.aborted) {
				state = abortAgent(state, abortReason(signal));
				continue;
			}
			state = failAgent(state, { code: 'model-error', message: (error as Error)?.message ?? String(error) });
			debug(debugLines.end(state));
			throw error;
		}
		debug(debugLines.response(turn));
		emit({ type: 'model-call-end', iteration: state.iterations + 1, turn });
		const stepsBefore = state.steps.length;
		state = applyModelTurn(state, turn);
		for (const step of state.steps.slice(stepsBefore)) {
			debug(debugLines.refused(step));
			emit({ type: 'step-end', step });
		}
	}
}
