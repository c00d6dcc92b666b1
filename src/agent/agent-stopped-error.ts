import type { AgentFailureCode, AgentStep } from './agent-state';
import type { Usage } from '../chat/types';
import { ToolbridgeError } from '../errors/toolbridge-error';

const codes: Record<AgentFailureCode, string> = {
	'max-iterations': 'AGENT_MAX_ITERATIONS',
	'repeated-call': 'AGENT_REPEATED_CALL',
	aborted: 'AGENT_ABORTED',
	'empty-answer': 'AGENT_EMPTY_ANSWER',
	'model-error': 'AGENT_MODEL_ERROR',
	'invalid-output': 'AGENT_INVALID_OUTPUT',
};

/**
 * The agent loop ended without an answer: a limit was reached (max iterations, a
 * repeated identical call) with the "error" behaviour, the run was aborted, or the
 * forced final answer was empty. Carries the tool steps made so far.
 */
export class AgentStoppedError extends ToolbridgeError {
	/** Why the loop stopped, as in the agent state's `failure.code`. */
	readonly reason: AgentFailureCode;
	readonly steps: AgentStep[];
	readonly usage: Usage;
	readonly iterations: number;

	constructor(
		reason: AgentFailureCode,
		message: string,
		details: { steps: AgentStep[]; usage: Usage; iterations: number },
		options?: { cause?: unknown },
	) {
		super(codes[reason], message, options);
		this.name = 'AgentStoppedError';
		this.reason = reason;
		this.steps = details.steps;
		this.usage = details.usage;
		this.iterations = details.iterations;
	}
}
