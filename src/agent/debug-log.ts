import type { AssistantTurn } from '../chat/types';
import type { AgentState, AgentStep } from './agent-state';
import type { ToolCallRequest } from './next-action';

const maxShown = 500;

/**
 * The `[DEBUG]` lines of the agent's debug log, one function per moment of the loop.
 * Lines are not redacted here; the driver redacts them before they leave.
 */
export const debugLines = {
	start(state: AgentState): string[] {
		const choice =
			typeof state.config.toolChoice === 'string'
				? state.config.toolChoice
				: state.config.toolChoice.name;
		const names = state.tools.map((tool) => tool.name).join(', ');
		const lines = [
			`[DEBUG] Starting agent loop. Tools available: ${state.tools.length}, toolChoice: ${choice}`,
		];
		if (state.tools.length > 0) lines.push(`[DEBUG] Tools: ${names}`);
		if (state.iterations > 0)
			lines.push(`[DEBUG] Resuming at iteration ${state.iterations}, status ${state.status}`);
		return lines;
	},
	iteration(state: AgentState, final: boolean): string {
		if (final)
			return `[DEBUG] Limit reached (${state.limitReached ?? 'max-iterations'}): final call without tools`;
		return `[DEBUG] Iteration ${state.iterations + 1}/${state.config.maxIterations}`;
	},
	response(turn: AssistantTurn): string {
		const thinking =
			turn.reasoning.length > 0 ? turn.reasoning.length : turn.reasoningDetails.length;
		return `[DEBUG] LLM response received. Content length: ${turn.text.length}, thinking length: ${thinking}, tool_calls: ${turn.toolCalls.length}, finish: ${turn.rawFinishReason}`;
	},
	toolStart(call: ToolCallRequest): string {
		return `[DEBUG] Executing tool: ${call.name} with args: ${shorten(JSON.stringify(call.arguments))}`;
	},
	toolEnd(step: AgentStep): string {
		const label = step.isError ? 'error' : 'result';
		return `[DEBUG] Tool ${step.tool} ${label} (${Math.round(step.durationMs)} ms): ${shorten(step.result)}`;
	},
	refused(step: AgentStep): string {
		return `[DEBUG] Tool call ${step.tool} not run: ${shorten(step.result)}`;
	},
	end(state: AgentState): string {
		if (state.status === 'done') {
			return `[DEBUG] Agent finished after ${state.iterations} model calls and ${state.steps.length} tool steps`;
		}
		return `[DEBUG] Agent stopped: ${state.failure?.message ?? state.status}`;
	},
};

function shorten(text: string): string {
	return text.length > maxShown ? `${text.slice(0, maxShown)}… (${text.length} chars)` : text;
}
