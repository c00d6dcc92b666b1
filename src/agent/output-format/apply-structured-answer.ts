import type { AssistantTurn, ChatMessage } from '../../chat/types';
import { modelFamilyFromModelId } from '../../schema/model-family';
import type { AgentResult, AgentState } from '../agent-state';
import { finishAgent } from '../stop-agent';
import { answerEnvelope, unwrapAnswer } from './answer-envelope';
import { checkAnswer } from './check-answer';
import { parseJsonAnswer } from './parse-json-answer';
import {
	finalAnswerToolName,
	maxOutputAttempts,
	type OutputAttempt,
	type StructuredOutputConfig,
} from './structured-output-config';
import {
	answerNowInstruction,
	repairInstruction,
	resolveOutputStrategy,
} from './structured-output-request';

/**
 * Output format `json`, the loop has answered with text (its assistant message is the
 * last one of `state`): a valid JSON answer ends the run with no extra call; otherwise the
 * state moves to `output-call`. Prose asks for the constrained answer; JSON that fails the
 * schema counts as the first attempt and asks for its repair.
 */
export function acceptLoopAnswer(
	state: AgentState,
	text: string,
	stopReason: AgentResult['stopReason'],
): AgentState {
	const config = state.config.structuredOutput as StructuredOutputConfig;
	const strategy = resolveOutputStrategy(
		config.strategy,
		modelFamilyFromModelId(state.config.model),
	);
	const start = state.messages.length - 1;
	const parsed = parseJsonAnswer(text);
	if (parsed.ok) {
		const errors = checkAnswer(parsed.value, config);
		if (errors.length === 0) return finishStructured(state, start, parsed.value, [], stopReason);
		const attempts = [{ answer: text, errors }];
		return {
			...state,
			status: 'output-call',
			structured: { start, attempts, strategy },
			messages: [...state.messages, { role: 'user', content: repairInstruction(errors) }],
		};
	}
	return {
		...state,
		status: 'output-call',
		structured: { start, attempts: [], strategy },
		messages: [
			...state.messages,
			{ role: 'user', content: answerNowInstruction(strategy, config) },
		],
	};
}

/**
 * Takes the turn of an `output-call` into the state (the caller has already counted the
 * iteration, usage and reasoning): the `final_answer` call's arguments (tool strategy) or
 * the text is parsed, unwrapped and validated. Valid: the run is done and `result.object`
 * holds the value. Invalid: the errors go back for one repair; after that the run fails
 * with `invalid-output`, naming both attempts' errors.
 */
export function applyOutputTurn(state: AgentState, turn: AssistantTurn): AgentState {
	const config = state.config.structuredOutput as StructuredOutputConfig;
	const progress = state.structured ?? {
		start: state.messages.length,
		attempts: [],
		strategy: 'response-format' as const,
	};
	const envelope = answerEnvelope(config.schema);
	const call =
		progress.strategy === 'tool'
			? turn.toolCalls.find((candidate) => candidate.name === finalAnswerToolName)
			: undefined;

	let answerText: string;
	let errors: string[];
	let value: unknown;
	if (call) {
		answerText = call.argumentsText;
		if (call.arguments === undefined)
			errors = [
				`the ${finalAnswerToolName} arguments are not a JSON object (${call.error ?? 'unreadable'})`,
			];
		else {
			value = unwrapAnswer(call.arguments, envelope);
			errors = checkAnswer(value, config);
		}
	} else {
		answerText = turn.text;
		const parsed =
			progress.strategy === 'tool' && turn.text.trim() === ''
				? { ok: false as const, error: `no call of the tool '${finalAnswerToolName}' and no text` }
				: parseJsonAnswer(turn.text);
		if (parsed.ok) {
			// A model that answered in text although the tool was forced may still have sent the value itself.
			value =
				progress.strategy === 'response-format'
					? unwrapAnswer(parsed.value, envelope)
					: parsed.value;
			errors = checkAnswer(value, config);
		} else errors = [parsed.error];
	}

	if (errors.length === 0)
		return finishStructured(state, progress.start, value, progress.attempts, 'answer');

	const attempts: OutputAttempt[] = [...progress.attempts, { answer: answerText, errors }];
	if (attempts.length >= maxOutputAttempts) {
		const described = attempts
			.map((attempt, index) => `attempt ${index + 1}: ${attempt.errors.join('; ')}`)
			.join(' | ');
		return {
			...state,
			messages: [
				...state.messages,
				{ role: 'assistant', content: answerText === '' ? null : answerText },
			],
			structured: { ...progress, attempts },
			status: 'failed',
			failure: {
				code: 'invalid-output',
				message: `The model's answer did not match the output JSON Schema after one repair attempt (${described}).`,
			},
		};
	}
	const repair = repairInstruction(errors);
	const messages: ChatMessage[] = call
		? [
				...state.messages,
				{
					role: 'assistant',
					content: null,
					tool_calls: [
						{
							id: call.toolCallId,
							type: 'function',
							function: { name: call.name, arguments: call.arguments ? call.argumentsText : '{}' },
						},
					],
				},
				{ role: 'tool', tool_call_id: call.toolCallId, content: repair },
			]
		: [
				...state.messages,
				{ role: 'assistant', content: answerText === '' ? null : answerText },
				{ role: 'user', content: repair },
			];
	return { ...state, messages, structured: { ...progress, attempts }, status: 'output-call' };
}

/**
 * Ends the run with a valid value. The answer part of the history (the loop's own answer,
 * instructions, rejected attempts) is replaced by one assistant message holding the JSON,
 * so memory keeps the conversation, not the scaffolding.
 */
function finishStructured(
	state: AgentState,
	start: number,
	value: unknown,
	attempts: OutputAttempt[],
	stopReason: AgentResult['stopReason'],
): AgentState {
	const json = JSON.stringify(value);
	const messages: ChatMessage[] = [
		...state.messages.slice(0, start),
		{ role: 'assistant', content: json },
	];
	const done = finishAgent({ ...state, messages }, json, stopReason);
	const result: AgentResult = { ...(done.result as AgentResult), object: value };
	if (attempts.length > 0) result.outputAttempts = attempts;
	return { ...done, result };
}
