import { ToolbridgeError } from './toolbridge-error';

/**
 * The provider reported an error inside an HTTP 200 stream (OpenRouter sends a chunk with
 * a top-level `error` and `finish_reason: "error"`, then ends the stream). Output may
 * already have been streamed, so this is never retried.
 */
export class MidStreamError extends ToolbridgeError {
	readonly providerCode?: string | number;

	constructor(providerMessage: string, providerCode?: string | number) {
		super(
			'CHAT_MID_STREAM',
			`The model provider failed mid-stream${providerCode === undefined ? '' : ` (${providerCode})`}: ${providerMessage}`,
		);
		this.name = 'MidStreamError';
		this.providerCode = providerCode;
	}
}
