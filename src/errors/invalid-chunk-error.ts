import { ToolbridgeError } from './toolbridge-error';

/** One SSE `data:` payload was not a JSON object. `data` holds its first 200 characters. */
export class InvalidChunkError extends ToolbridgeError {
	readonly data: string;

	constructor(data: string, reason: string) {
		const excerpt = data.length > 200 ? `${data.slice(0, 200)}…` : data;
		super(
			'CHAT_INVALID_CHUNK',
			`The model stream sent a chunk that is not a JSON object (${reason}): ${excerpt}`,
		);
		this.name = 'InvalidChunkError';
		this.data = excerpt;
	}
}
