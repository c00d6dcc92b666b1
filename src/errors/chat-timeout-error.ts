import { ToolbridgeError } from './toolbridge-error';

/** The chat API sent nothing (no headers, no bytes) for longer than the allowed time. */
export class ChatTimeoutError extends ToolbridgeError {
	readonly timeoutMs: number;

	constructor(timeoutMs: number, phase: 'response' | 'stream') {
		super(
			'CHAT_TIMEOUT',
			phase === 'response'
				? `The chat API sent no response within ${timeoutMs} ms (option timeoutMs).`
				: `The chat API stream sent no data for ${timeoutMs} ms (option timeoutMs).`,
		);
		this.name = 'ChatTimeoutError';
		this.timeoutMs = timeoutMs;
	}
}
