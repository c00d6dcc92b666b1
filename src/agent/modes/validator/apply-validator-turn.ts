import { assistantMessageFromTurn } from '../../../chat/assistant-message';
import type { AssembledToolCall, AssistantTurn, ChatMessage } from '../../../chat/types';
import { AgentStateError } from '../../../errors/agent-state-error';
import { describeSchemaProblem } from '../../../schema/schema-problems';
import { validateJsonSchema } from '../../../schema/validate-json';
import { addUsage } from '../../add-usage';
import type { ToolCallResult } from '../../apply-tool-results';
import {
	brokenArgumentsFeedback,
	schemaProblemsFeedback,
	textInsteadOfCallFeedback,
	wrongToolFeedback,
} from './validator-feedback';
import type {
	ValidatorAttempt,
	ValidatorCall,
	ValidatorFailureCode,
	ValidatorState,
} from './validator-state';

/**
 * Takes one attempt (a model turn) into a validator state. The first tool call whose
 * tool is allowed and whose arguments pass the tool's JSON Schema is accepted: the state
 * then waits for its one run (`awaiting-tool`), or is `done` with "validate only". A text
 * answer, an unknown or disallowed tool, broken JSON or schema problems (ajv, one
 * `"field": expected …, received …` line each) cost the attempt: the exact errors go back
 * to the model (a `tool` message per call, or a user message after text) and the state is
 * `ready` again, or `failed` once max attempts are used.
 *
 * @throws {AgentStateError} when the state is not waiting for a model turn.
 * @throws {JsonSchemaError} `INVALID_JSON_SCHEMA` when the called tool's schema cannot be
 * compiled (createValidatorState refuses such a tool up front).
 */
export function applyValidatorTurn(state: ValidatorState, turn: AssistantTurn): ValidatorState {
	expectValidatorStatus(state, 'applyValidatorTurn', 'ready');
	const attempt = state.attempts.length + 1;
	const usage = addUsage(state.usage, turn.usage);
	const toolNames = state.tools.map((tool) => tool.name);
	const forced = state.config.toolName;
	const assistant = assistantMessageFromTurn(turn);
	const messages: ChatMessage[] = [...state.messages, assistant];

	if (turn.toolCalls.length === 0) {
		const error = textInsteadOfCallFeedback(toolNames, forced);
		messages.push({ role: 'user', content: error });
		return afterFailedAttempt({ ...state, usage, messages }, { attempt, errors: [error] });
	}

	const errorsByCall = turn.toolCalls.map((call) => callErrors(state, call));
	const acceptedIndex = errorsByCall.findIndex((errors) => errors.length === 0);
	if (acceptedIndex >= 0) {
		const call = turn.toolCalls[acceptedIndex];
		const spec = state.tools.find((tool) => tool.name === call.name)!;
		const accepted: ValidatorCall = {
			toolCallId: call.toolCallId,
			name: call.name,
			arguments: call.arguments ?? {},
		};
		if (spec.sourceNodeName !== undefined) accepted.sourceNodeName = spec.sourceNodeName;
		const attempts = [
			...state.attempts,
			{ attempt, tool: call.name, arguments: accepted.arguments, errors: [] },
		];
		const next: ValidatorState = {
			...state,
			usage,
			messages,
			attempts,
			call: accepted,
			status: 'awaiting-tool',
		};
		if (!state.config.validateOnly) return next;
		return {
			...next,
			status: 'done',
			result: {
				tool: call.name,
				arguments: accepted.arguments,
				attempts: attempt,
				attemptLog: attempts,
				usage,
			},
		};
	}

	turn.toolCalls.forEach((call, index) =>
		messages.push({
			role: 'tool',
			tool_call_id: call.toolCallId,
			content: errorsByCall[index].join('\n'),
		}),
	);
	const first = turn.toolCalls[0];
	return afterFailedAttempt(
		{ ...state, usage, messages },
		{
			attempt,
			tool: first.name,
			arguments: first.error !== undefined ? first.argumentsText : (first.arguments ?? {}),
			errors: errorsByCall.flat(),
		},
	);
}

/**
 * Takes the result of the accepted call's one run. A failed run (`isError`) fails the
 * validator with the tool's message; there is no second run.
 *
 * @throws {AgentStateError} when the state is not waiting for the tool.
 */
export function applyValidatorToolResult(
	state: ValidatorState,
	results: ToolCallResult[],
): ValidatorState {
	expectValidatorStatus(state, 'applyValidatorToolResult', 'awaiting-tool');
	const call = state.call!;
	const result = results.find((entry) => entry.toolCallId === call.toolCallId);
	const observation = result?.observation ?? {
		content: `No result came back for the call of '${call.name}'.`,
		isError: true,
	};
	if (observation.isError) {
		return failValidator(
			state,
			'tool-error',
			`Tool '${call.name}' failed on its one run with validated arguments: ${observation.content}`,
		);
	}
	return {
		...state,
		status: 'done',
		result: {
			tool: call.name,
			arguments: call.arguments,
			result: observation.data !== undefined ? observation.data : observation.content,
			attempts: state.attempts.length,
			attemptLog: state.attempts,
			usage: state.usage,
		},
	};
}

/** Ends an unfinished validator run as failed (e.g. aborted, or the model call failed). */
export function failValidator(
	state: ValidatorState,
	code: ValidatorFailureCode,
	message: string,
): ValidatorState {
	if (state.status === 'done' || state.status === 'failed') return state;
	return { ...state, status: 'failed', failure: { code, message } };
}

function callErrors(state: ValidatorState, call: AssembledToolCall): string[] {
	const toolNames = state.tools.map((tool) => tool.name);
	const forced = state.config.toolName;
	if (forced !== undefined ? call.name !== forced : !toolNames.includes(call.name)) {
		return [wrongToolFeedback(call.name, toolNames, forced)];
	}
	if (call.error !== undefined) return [brokenArgumentsFeedback(call.name, call.error)];
	const spec = state.tools.find((tool) => tool.name === call.name)!;
	const problems = validateJsonSchema(call.arguments ?? {}, spec.parameters);
	return problems.length === 0
		? []
		: [schemaProblemsFeedback(call.name, problems.map(describeSchemaProblem))];
}

function afterFailedAttempt(state: ValidatorState, attempt: ValidatorAttempt): ValidatorState {
	const attempts = [...state.attempts, attempt];
	if (attempts.length < state.config.maxAttempts) return { ...state, attempts, status: 'ready' };
	const lines = attempts.map(
		(entry) =>
			`Attempt ${entry.attempt}${entry.tool ? ` (${entry.tool})` : ''}:\n${entry.errors.map((error) => `  ${error.replace(/\n/g, '\n  ')}`).join('\n')}`,
	);
	return {
		...state,
		attempts,
		status: 'failed',
		failure: {
			code: 'attempts-exhausted',
			message: `The model did not produce a valid tool call in ${attempts.length} attempt${attempts.length === 1 ? '' : 's'} (max attempts ${state.config.maxAttempts}).\n${lines.join('\n')}`,
		},
	};
}

function expectValidatorStatus(
	state: ValidatorState,
	transition: string,
	...allowed: ValidatorState['status'][]
): void {
	if (state.version !== 1 || state.kind !== 'validator')
		throw new AgentStateError(`${transition} needs a validator state (version 1).`);
	if (!allowed.includes(state.status))
		throw new AgentStateError(
			`${transition} needs a state in ${allowed.join(' or ')}; this one is ${state.status}.`,
		);
}
