import type { AssistantTurn, ChatRequest, StreamPart } from '../chat/types';
import type { AgentStep } from './agent-state';
import type { ToolCallRequest } from './next-action';

/**
 * What a driver reports while it runs, a discriminated union on `type`: text and
 * reasoning deltas for streaming, model calls, tool steps, and `[DEBUG]` lines when the
 * debug log is on.
 */
export type AgentEvent =
	| { type: 'model-call-start'; iteration: number; final: boolean; request: ChatRequest }
	| { type: 'text-delta'; text: string }
	| { type: 'reasoning-delta'; text: string }
	| { type: 'model-call-end'; iteration: number; turn: AssistantTurn }
	| { type: 'step-start'; iteration: number; call: ToolCallRequest }
	| { type: 'step-end'; step: AgentStep }
	| { type: 'debug'; line: string };

/** Receives driver events; must not throw. */
export type AgentEventListener = (event: AgentEvent) => void;

/** Passes a model stream's text and reasoning deltas on as driver events. */
export function forwardStreamPart(part: StreamPart, emit: (event: AgentEvent) => void): void {
	if (part.type === 'text-delta') emit({ type: 'text-delta', text: part.text });
	else if (part.type === 'reasoning-delta') emit({ type: 'reasoning-delta', text: part.text });
}
