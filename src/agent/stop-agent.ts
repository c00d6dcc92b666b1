import { AgentStateError } from '../errors/agent-state-error';
import type { AgentFailure, AgentResult, AgentState } from './agent-state';

/**
 * Ends a run that is not finished yet as failed, e.g. `{ code: 'aborted' }` when the
 * execution was cancelled or `{ code: 'model-error' }` when the model call failed for
 * good. A finished run is returned unchanged.
 */
export function failAgent(state: AgentState, failure: AgentFailure): AgentState {
	if (state.status === 'done' || state.status === 'failed') return state;
	return { ...state, status: 'failed', failure };
}

/** The reason an aborted run reports: the signal's own (e.g. the whole-run time limit), else a generic one. */
export function abortReason(signal: AbortSignal): string {
	return describeAbortReason(signal.reason);
}

/** {@link abortReason} for a signal's `reason` itself. */
export function describeAbortReason(reason: unknown): string {
	if (reason instanceof Error && reason.name !== 'AbortError') return `aborted (${reason.message})`;
	return 'the run was aborted';
}

/** Ends a run as aborted (the execution was cancelled). */
export function abortAgent(state: AgentState, reason = 'the run was aborted'): AgentState {
	return failAgent(state, { code: 'aborted', message: `The agent stopped: ${reason}.` });
}

/**
 * Moves a run whose limit was reached to its limit behaviour: one last call without
 * tools, or failure with the steps attached.
 */
export function reachLimit(
	state: AgentState,
	limit: 'max-iterations' | 'repeated-call',
	message: string,
): AgentState {
	if (state.config.limitBehavior === 'final-answer')
		return { ...state, status: 'final-call', limitReached: limit };
	return { ...state, status: 'failed', failure: { code: limit, message } };
}

/** Ends a run with the model's answer. */
export function finishAgent(
	state: AgentState,
	output: string,
	stopReason: AgentResult['stopReason'],
): AgentState {
	const result: AgentResult = {
		output,
		steps: state.steps,
		usage: state.usage,
		iterations: state.iterations,
		reasoning: state.reasoning.join('\n\n'),
		stopReason,
	};
	return { ...state, status: 'done', result };
}

/**
 * @throws {AgentStateError} when the state is not in one of the expected statuses.
 */
export function expectStatus(
	state: AgentState,
	transition: string,
	...allowed: AgentState['status'][]
): void {
	if (state.version !== 1)
		throw new AgentStateError(
			`Unknown agent state version ${String(state.version)}; this package reads version 1.`,
		);
	if (!allowed.includes(state.status)) {
		throw new AgentStateError(
			`${transition} needs a state in ${allowed.join(' or ')}; this one is ${state.status}.`,
		);
	}
}
