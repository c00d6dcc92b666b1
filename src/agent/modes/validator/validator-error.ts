import type { ValidatorAttempt, ValidatorFailureCode } from './validator-state';
import type { Usage } from '../../../chat/types';
import { ToolbridgeError } from '../../../errors/toolbridge-error';

const codes: Record<ValidatorFailureCode, string> = {
	'attempts-exhausted': 'VALIDATOR_ATTEMPTS_EXHAUSTED',
	'tool-error': 'VALIDATOR_TOOL_FAILED',
	aborted: 'VALIDATOR_ABORTED',
	'model-error': 'VALIDATOR_MODEL_ERROR',
};

/**
 * A validator run ended without a result: every attempt failed validation, the tool
 * failed on its one run, or the run was aborted. Carries every attempt with the exact
 * errors the model was sent.
 */
export class ValidatorError extends ToolbridgeError {
	readonly reason: ValidatorFailureCode;
	readonly attempts: ValidatorAttempt[];
	readonly usage: Usage;

	constructor(
		reason: ValidatorFailureCode,
		message: string,
		details: { attempts: ValidatorAttempt[]; usage: Usage },
		options?: { cause?: unknown },
	) {
		super(codes[reason], message, options);
		this.name = 'ValidatorError';
		this.reason = reason;
		this.attempts = details.attempts;
		this.usage = details.usage;
	}
}
