import type { NodeRunError } from './node-runner';

/** Reduces any thrown value (n8n `NodeApiError`, `NodeOperationError`, ours) to what the model should read. */
export function toNodeRunError(error: unknown): NodeRunError {
	if (!(error instanceof Error)) return { message: String(error) };
	const details = error as Error & { description?: unknown; httpCode?: unknown };
	const result: NodeRunError = { message: error.message, name: error.name };
	if (typeof details.description === 'string' && details.description && details.description !== error.message) {
		result.description = details.description;
	}
	if (typeof details.httpCode === 'string' && details.httpCode) result.httpCode = details.httpCode;
	return result;
}
