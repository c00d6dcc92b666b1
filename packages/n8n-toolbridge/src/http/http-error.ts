import { ToolbridgeError } from 'n8n-nodes-toolbridge';

/** An HTTP request a server refuses, with the status to answer and a short machine-readable type. */
export class HttpError extends ToolbridgeError {
	constructor(
		readonly status: number,
		message: string,
		readonly type: string,
		readonly headers: Record<string, string> = {},
		/** The request field at fault (OpenAI's `param`), when there is one. */
		readonly param: string | null = null,
	) {
		super('HTTP_REQUEST_REFUSED', message);
		this.name = 'HttpError';
	}
}
