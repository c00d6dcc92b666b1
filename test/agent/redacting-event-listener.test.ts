import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event';
import { redactingEventListener } from '../../src/agent/redacting-event-listener';
import { Redactor } from '../../src/chat/redactor';
import type { AssistantTurn } from '../../src/chat/types';

const key = 'model-key-7f3a9c21b6e4';

function turn(text: string): AssistantTurn {
	return {
		text,
		reasoning: '',
		reasoningDetails: [],
		toolCalls: [],
		finishReason: 'stop',
		rawFinishReason: 'stop',
	};
}

describe('redactingEventListener', () => {
	it("streams the model's text redacted, the held-back end before the call's end; tool calls redacted", () => {
		const received: AgentEvent[] = [];
		const { onEvent, flush } = redactingEventListener(
			(event) => received.push(event),
			new Redactor([key]),
		);
		for (const piece of ['Key: ', key.slice(0, 9), key.slice(9), ' ok'])
			onEvent({ type: 'text-delta', text: piece });
		onEvent({ type: 'model-call-end', iteration: 1, turn: turn(`Key: ${key} ok`) });
		onEvent({
			type: 'step-start',
			iteration: 1,
			call: { toolCallId: 'c1', name: 'Echo', arguments: { text: key } },
		});
		onEvent({ type: 'reasoning-delta', text: `thinking of ${key}` });
		flush();
		const texts = received
			.filter((event) => event.type === 'text-delta')
			.map((event) => event.text);
		expect(texts.join('')).toBe('Key: [REDACTED] ok');
		const types = received.map((event) => event.type);
		expect(types.slice(texts.length, texts.length + 2)).toEqual(['model-call-end', 'step-start']);
		const reasoning = received.slice(texts.length + 2);
		expect(reasoning.every((event) => event.type === 'reasoning-delta')).toBe(true);
		expect(reasoning.map((event) => (event as { text: string }).text).join('')).toBe(
			'thinking of [REDACTED]',
		);
		expect(JSON.stringify(received)).not.toContain(key);
	});
});
