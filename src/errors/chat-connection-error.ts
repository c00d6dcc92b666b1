import { ToolbridgeError } from './toolbridge-error';

/**
 * The connection to the chat API failed (refused, reset, DNS, TLS) or broke while the
 * stream was read. `systemCode` is the low-level code such as `ECONNRESET`.
 */
export class ChatConnectionError extends ToolbridgeError {
	readonly systemCode?: string;

	constructor(url: string, systemCode: string | undefined, options?: { cause?: unknown }) {
		super(
			'CHAT_CONNECTION',
			`Could not talk to the chat API at ${url}${systemCode ? ` (${systemCode})` : ''}.`,
			options,
		);
		this.name = 'ChatConnectionError';
		this.systemCode = systemCode;
	}
}
