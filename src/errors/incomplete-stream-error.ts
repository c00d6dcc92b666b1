import { ToolbridgeError } from './toolbridge-error';

/** The model stream ended without a `finish_reason`: the answer may be cut off. */
export class IncompleteStreamError extends ToolbridgeError {
	constructor(summary: string) {
		super(
			'CHAT_STREAM_INCOMPLETE',
			`The model stream ended without a finish_reason (${summary}); the answer may be cut off.`,
		);
		this.name = 'IncompleteStreamError';
	}
}
