import { reasoningTextOf } from '../chat/reasoning-details-accumulator';
import { assistantMessageFromTurn } from '../chat/assistant-message';
import type { AssistantTurn } from '../chat/types';
import { addUsage } from './add-usage';
import { acceptLoopAnswer, applyOutputTurn } from './output-format/apply-structured-answer';
import type { AgentState, PendingToolCall } from './agent-state';
import { applyToolResults } from './apply-tool-results';
import { canonicalJson } from './canonical-json';
import { expectStatus, finishAgent } from './stop-agent';
import {
	invalidArgumentsObservation,
	repeatedCallObservation,
	stoppingObservation,
	unknownToolObservation,
} from './tool-observations';

/**
 * Takes the model's turn into the state. No tool calls: the run is done with the text
 * as its answer. Tool calls: the state waits for their results (`awaiting-tools`);
 * calls the loop answers itself (unknown tool, broken arguments, a repeated identical
 * call) get their observation here and are not handed to the driver. A final call
 * (after a limit) always ends the run; tool calls in it are ignored. With output format
 * `json` the answer is validated first (see `acceptLoopAnswer`, `applyOutputTurn`).
 * The last turn's model and finish reason are kept (`lastTurn`, and in the result).
 *
 * @throws {AgentStateError} when the state is not waiting for a model turn.
 */
export function applyModelTurn(state: AgentState, turn: AssistantTurn): AgentState {
	expectStatus(state, 'applyModelTurn', 'ready', 'final-call', 'output-call');
	return withTurnDetails(applyTurn(state, turn), turn);
}

function applyTurn(state: AgentState, turn: AssistantTurn): AgentState {
	const final = state.status === 'final-call';
	const iterations = state.iterations + 1;
	const reasoningText =
		turn.reasoning !== '' ? turn.reasoning : turn.reasoningDetails.map(reasoningTextOf).join('');
	if (state.status === 'output-call') {
		return applyOutputTurn(
			{
				...state,
				iterations,
				usage: addUsage(state.usage, turn.usage),
				reasoning: reasoningText !== '' ? [...state.reasoning, reasoningText] : state.reasoning,
			},
			turn,
		);
	}
	const toolCalls = final ? [] : turn.toolCalls;

	// Broken argument text goes back as "{}" (providers reject invalid JSON in the history);
	// the tool message for that call explains the problem to the model.
	const assistant = assistantMessageFromTurn(final ? { ...turn, toolCalls: [] } : turn);

	let next: AgentState = {
		...state,
		iterations,
		usage: addUsage(state.usage, turn.usage),
		messages: [...state.messages, assistant],
		reasoning: reasoningText !== '' ? [...state.reasoning, reasoningText] : state.reasoning,
	};

	if (toolCalls.length === 0) {
		if (final && turn.text.trim() === '') {
			return {
				...next,
				status: 'failed',
				failure: {
					code: next.limitReached ?? 'max-iterations',
					message: `The agent reached a limit (${next.limitReached ?? 'max-iterations'}) and the final answer it was asked for was empty.`,
				},
			};
		}
		const stopReason = final ? (next.limitReached ?? 'max-iterations') : 'answer';
		if (next.config.structuredOutput) return acceptLoopAnswer(next, turn.text, stopReason);
		return finishAgent(next, turn.text, stopReason);
	}

	const toolNames = state.tools.map((tool) => tool.name);
	const callCounts = { ...state.callCounts };
	const repeatWarnings = [...state.repeatWarnings];
	let stop: AgentState['stopAfterTools'];
	const pending: PendingToolCall[] = toolCalls.map((call) => {
		const entry: PendingToolCall = {
			toolCallId: call.toolCallId,
			name: call.name,
			arguments: call.arguments ?? {},
			argumentsText: call.argumentsText,
		};
		if (call.error !== undefined) {
			entry.brokenArguments = true;
			entry.resolved = {
				content: invalidArgumentsObservation(call.name, call.error),
				isError: true,
			};
			return entry;
		}
		if (!toolNames.includes(call.name)) {
			entry.resolved = { content: unknownToolObservation(call.name, toolNames), isError: true };
			return entry;
		}
		const key = `${call.name}\u0000${canonicalJson(entry.arguments)}`;
		const count = (callCounts[key] ?? 0) + 1;
		callCounts[key] = count;
		if (count < state.config.repeatedCallLimit) return entry;
		if (!repeatWarnings.includes(key)) {
			repeatWarnings.push(key);
			entry.resolved = { content: repeatedCallObservation(call.name, count), isError: true };
			return entry;
		}
		stop ??= {
			code: 'repeated-call',
			message: `The agent stopped: the model called '${call.name}' with the same arguments ${count} times, after being told the result would not change.`,
		};
		return entry;
	});
	if (stop) {
		for (const entry of pending) {
			entry.resolved ??= {
				content: stoppingObservation('the same tool call was repeated after a warning'),
				isError: true,
			};
		}
	}

	next = {
		...next,
		callCounts,
		repeatWarnings,
		status: 'awaiting-tools',
		pendingToolCalls: pending,
	};
	if (stop) next.stopAfterTools = stop;
	if (pending.every((entry) => entry.resolved !== undefined)) return applyToolResults(next, []);
	return next;
}

/** Records the turn's model and finish reason in the state, and in the result of a finished run. */
function withTurnDetails(state: AgentState, turn: AssistantTurn): AgentState {
	const lastTurn: NonNullable<AgentState['lastTurn']> = { finishReason: turn.finishReason };
	if (turn.model !== undefined) lastTurn.model = turn.model;
	if (!state.result) return { ...state, lastTurn };
	const result = { ...state.result, finishReason: turn.finishReason };
	if (turn.model !== undefined) result.model = turn.model;
	return { ...state, lastTurn, result };
}
