import type { Redactor } from '../chat/redactor';
import { StreamingRedactor } from '../chat/streaming-redactor';
import type { AgentEvent, AgentEventListener } from './agent-event';

/** A listener that redacts, and the call that sends what it still holds. */
export interface RedactingEventListener {
	onEvent: AgentEventListener;
	/** Sends the held-back end of the streamed text and reasoning (when the run ends or fails). */
	flush(): void;
}

/**
 * Wraps a listener so that no secret of `redactor` reaches it: the model's streamed text and
 * reasoning go through a {@link StreamingRedactor} each (a key split across deltas is caught;
 * the last characters of a model call arrive when the call ends), the tool calls of
 * `step-start`, `step-end` and `model-call-end` are redacted as values. `debug` lines are
 * redacted where they are made and pass as they are; so does `model-call-start` (the request
 * the model is sent).
 */
export function redactingEventListener(
	listener: AgentEventListener,
	redactor: Redactor,
): RedactingEventListener {
	const text = new StreamingRedactor(redactor);
	const reasoning = new StreamingRedactor(redactor);
	const flush = (): void => {
		const heldText = text.flush();
		if (heldText !== '') listener({ type: 'text-delta', text: heldText });
		const heldReasoning = reasoning.flush();
		if (heldReasoning !== '') listener({ type: 'reasoning-delta', text: heldReasoning });
	};
	const onEvent = (event: AgentEvent): void => {
		switch (event.type) {
			case 'text-delta': {
				const ready = text.push(event.text);
				if (ready !== '') listener({ type: 'text-delta', text: ready });
				return;
			}
			case 'reasoning-delta': {
				const ready = reasoning.push(event.text);
				if (ready !== '') listener({ type: 'reasoning-delta', text: ready });
				return;
			}
			case 'debug':
				return listener(event);
			case 'model-call-start':
				flush();
				return listener(event);
			case 'model-call-end':
				flush();
				return listener({ ...event, turn: redactor.value(event.turn) });
			case 'step-start':
				flush();
				return listener({ ...event, call: redactor.value(event.call) });
			case 'step-end':
				flush();
				return listener({ ...event, step: redactor.value(event.step) });
		}
	};
	return { onEvent, flush };
}
