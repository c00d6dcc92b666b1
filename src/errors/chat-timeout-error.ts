import { ToolbridgeError } from './toolbridge-error';

/**
 * Which wait ran out:
 * - `response`: no response headers within `timeoutMs`;
 * - `stream`: no bytes for `timeoutMs` before the first token;
 * - `first-token`: headers and keep-alive comments came, but no token within `firstTokenTimeoutMs`;
 * - `stall`: the stream started, then sent no bytes for `stallTimeoutMs` (a stalled stream);
 * - `total`: the whole call took longer than `totalTimeoutMs`, however steadily bytes came.
 */
export type ChatTimeoutPhase = 'response' | 'stream' | 'first-token' | 'stall' | 'total';

const messages: Record<ChatTimeoutPhase, (timeoutMs: number) => string> = {
	response: (timeoutMs) =>
		`The chat API sent no response within ${timeoutMs} ms (option timeoutMs).`,
	stream: (timeoutMs) => `The chat API stream sent no data for ${timeoutMs} ms (option timeoutMs).`,
	'first-token': (timeoutMs) =>
		`The model sent no token within ${timeoutMs} ms of the request (option firstTokenTimeoutMs).`,
	stall: (timeoutMs) =>
		`The model's stream stalled: no data for ${timeoutMs} ms after it had started (option stallTimeoutMs).`,
	total: (timeoutMs) =>
		`The model call did not finish within ${timeoutMs} ms in all and was stopped (option totalTimeoutMs).`,
};

/** The chat API sent nothing (no headers, no bytes, no token) for longer than the allowed time, or the whole call took too long. */
export class ChatTimeoutError extends ToolbridgeError {
	readonly timeoutMs: number;
	readonly phase: ChatTimeoutPhase;

	constructor(timeoutMs: number, phase: ChatTimeoutPhase) {
		super(
			phase === 'stall' || phase === 'first-token' ? 'CHAT_STREAM_STALLED' : 'CHAT_TIMEOUT',
			messages[phase](timeoutMs),
		);
		this.name = 'ChatTimeoutError';
		this.timeoutMs = timeoutMs;
		this.phase = phase;
	}
}
