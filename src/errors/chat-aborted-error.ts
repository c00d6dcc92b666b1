import { ToolbridgeError } from './toolbridge-error';

/** The chat request was aborted through the caller's `AbortSignal`. */
export class ChatAbortedError extends ToolbridgeError {
	constructor(options?: { cause?: unknown }) {
		super('CHAT_ABORTED', 'The chat request was aborted.', options);
		this.name = 'ChatAbortedError';
	}
}
