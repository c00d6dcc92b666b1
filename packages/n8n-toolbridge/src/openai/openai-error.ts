import { AgentConfigurationError, ApiCallError, ToolbridgeError } from 'n8n-nodes-toolbridge';
import { HttpError } from '../http/http-error';

/** An error as OpenAI sends it: status and `{ error: { message, type, param, code } }`. */
export interface OpenAIErrorReply {
	status: number;
	body: { error: { message: string; type: string; param: string | null; code: string | null } };
	headers: Record<string, string>;
}

const TYPE_BY_STATUS: Record<number, string> = {
	400: 'invalid_request_error',
	401: 'invalid_request_error',
	403: 'invalid_request_error',
	404: 'invalid_request_error',
	408: 'invalid_request_error',
	409: 'invalid_request_error',
	413: 'invalid_request_error',
	429: 'rate_limit_error',
};

/**
 * The one place errors become OpenAI-style replies: refused requests keep their status;
 * a workflow that cannot run (no model key, no model …) is a 500 naming the problem; the
 * model server's own failure a 502; a session another request is running on
 * (`SESSION_BUSY`) a 409; anything else a 500 with the message (never a stack).
 */
export function openAIErrorReply(error: unknown): OpenAIErrorReply {
	if (error instanceof HttpError) {
		return reply(
			error.status,
			error.message,
			TYPE_BY_STATUS[error.status] ?? 'server_error',
			error.param,
			error.type,
			error.headers,
		);
	}
	if (error instanceof AgentConfigurationError)
		return reply(
			500,
			`The workflow's agent cannot run: ${error.message}`,
			'server_error',
			null,
			error.code,
		);
	if (error instanceof ApiCallError)
		return reply(
			502,
			`The agent's model server failed: ${error.message}`,
			'upstream_error',
			null,
			error.code,
		);
	if (ToolbridgeError.isInstance(error) && error.code === 'SESSION_BUSY')
		return reply(409, error.message, 'invalid_request_error', null, error.code);
	if (ToolbridgeError.isInstance(error))
		return reply(500, error.message, 'server_error', null, error.code);
	return reply(
		500,
		`Internal error: ${error instanceof Error ? error.message : String(error)}`,
		'server_error',
		null,
		null,
	);
}

function reply(
	status: number,
	message: string,
	type: string,
	param: string | null,
	code: string | null,
	headers: Record<string, string> = {},
): OpenAIErrorReply {
	return { status, body: { error: { message, type, param, code } }, headers };
}
