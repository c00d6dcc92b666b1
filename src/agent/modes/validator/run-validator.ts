import type { AssistantTurn } from '../../../chat/types';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import type { AgentEvent } from '../../agent-event';
import type { AgentTool } from '../../../tools/agent-tool';
import { callModelStep } from '../../call-model-step';
import { withCallerServer } from '../../model-options';
import { runToolCall } from '../../run-tool-call';
import { OutputBoundary, type OutputBoundaryOptions } from '../../output-boundary';
import type { CallModel } from '../../call-model-step';
import { abortReason } from '../../stop-agent';
import { withRunTimeLimits } from '../../time-limits/default-time-limits';
import {
	applyValidatorToolResult,
	applyValidatorTurn,
	failValidator,
} from './apply-validator-turn';
import { createValidatorState, type ValidatorInput } from './create-validator-state';
import { nextValidatorAction } from './next-validator-action';
import type { ValidatorResult, ValidatorState } from './validator-state';

/** Options of the in-process validator driver; `secrets` / `redactor` and `maxOutputLength` set its {@link OutputBoundary}. */
export interface RunValidatorOptions extends OutputBoundaryOptions {
	/** A state to resume; or give `input`. */
	state?: ValidatorState;
	input?: Omit<ValidatorInput, 'tools'>;
	/** The tool implementations, matched by name. */
	tools: AgentTool[];
	callModel: CallModel;
	signal?: AbortSignal;
	/** Receives `text-delta`, `model-call-*`, `step-*` and (with `debug`) `debug` events. */
	onEvent?: (event: AgentEvent) => void;
	onState?: (state: ValidatorState) => void;
	debug?: boolean;
	/** Time limit of the tool's one run in ms (default 120000; 0 = none): it fails the validator as `tool-error`. */
	toolTimeoutMs?: number;
	/** Time limit for the whole run in ms (default 600000; 0 = none): the validator stops as `aborted`, even while the tool runs. */
	runTimeoutMs?: number;
}

/**
 * Runs a validator: model calls that must call a tool, each checked against the tool's
 * schema with the errors sent back, until one passes or max attempts are used; then the
 * tool runs exactly once (not at all with "validate only").
 *
 * @throws {ValidatorError} when the attempts are exhausted (every attempt's errors in the
 * message and in `attempts`), the tool fails or runs out of time, or `signal` or the run's
 * time limit aborts the run (at once, also while the tool runs; its late result is dropped).
 * @throws the model call's own error (e.g. ApiCallError), its secrets redacted, when a model call fails.
 * @throws {AgentConfigurationError} for a bad input (no tools, unknown tool name, …).
 */
export async function runValidator(
	options: RunValidatorOptions,
): Promise<{ state: ValidatorState; result: ValidatorResult }> {
	return withRunTimeLimits('runValidator', options, runValidatorLoop);
}

async function runValidatorLoop(
	options: RunValidatorOptions,
): Promise<{ state: ValidatorState; result: ValidatorResult }> {
	const { signal } = options;
	const emit = (event: AgentEvent): void => options.onEvent?.(event);
	const boundary = new OutputBoundary(options);
	const debug = (line: string): void => {
		if (options.debug) emit({ type: 'debug', line: boundary.line(line) });
	};
	const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
	if (!options.state && !options.input)
		throw new AgentConfigurationError(
			'input',
			'runValidator needs a state to resume or an input to start from.',
		);
	let state =
		options.state ??
		createValidatorState({
			...options.input!,
			config: withCallerServer(options.input!.config, options.callModel),
			tools: options.tools,
		});
	const update = (next: ValidatorState): void => {
		state = next;
		options.onState?.(state);
	};
	debug(
		`[DEBUG] Starting validator. Tool: ${state.config.toolName ?? `any of ${state.tools.map((tool) => tool.name).join(', ')}`}, max attempts: ${state.config.maxAttempts}${state.config.validateOnly ? ', validate only' : ''}`,
	);

	for (;;) {
		if (signal?.aborted)
			update(failValidator(state, 'aborted', `The validator stopped: ${abortReason(signal)}.`));
		const action = nextValidatorAction(state);
		switch (action.type) {
			case 'done':
				debug(
					`[DEBUG] Validator finished after ${action.result.attempts} attempt(s): ${action.result.tool}`,
				);
				return { state, result: action.result };
			case 'failed':
				debug(`[DEBUG] Validator stopped: ${action.error.message.split('\n')[0]}`);
				throw action.error;
			case 'call-model': {
				debug(`[DEBUG] Attempt ${action.attempt}/${state.config.maxAttempts}`);
				let turn: AssistantTurn;
				try {
					turn = await callModelStep(
						action.request,
						{
							iteration: action.attempt,
							final: false,
							fallbackModels: state.config.fallbackModels,
						},
						{ callModel: options.callModel, signal, emit },
					);
				} catch (error) {
					if (signal?.aborted) continue;
					const failure = boundary.error(error);
					update(
						failValidator(state, 'model-error', (failure as Error)?.message ?? String(failure)),
					);
					throw failure;
				}
				update(applyValidatorTurn(state, turn));
				const errors = state.attempts.at(-1)?.errors ?? [];
				for (const error of errors)
					debug(`[DEBUG] Attempt ${action.attempt} rejected: ${error.replace(/\n/g, ' ')}`);
				if (errors.length === 0)
					debug(
						`[DEBUG] Attempt ${action.attempt} accepted: ${state.call?.name} ${JSON.stringify(state.call?.arguments)}`,
					);
				break;
			}
			case 'run-tools': {
				const [call] = action.calls;
				emit({ type: 'step-start', iteration: state.attempts.length, call });
				debug(`[DEBUG] Executing tool: ${call.name} with args: ${JSON.stringify(call.arguments)}`);
				const result = await runToolCall(byName.get(call.name), call, { signal, boundary });
				// A run stopped while the tool ran ends as aborted (next turn of the loop), not as a tool error.
				if (!signal?.aborted) update(applyValidatorToolResult(state, [result]));
				const { observation, durationMs } = result;
				emit({
					type: 'step-end',
					step: {
						iteration: state.attempts.length,
						toolCallId: call.toolCallId,
						tool: call.name,
						arguments: call.arguments,
						result: observation.content,
						isError: observation.isError,
						durationMs,
					},
				});
				break;
			}
		}
	}
}
