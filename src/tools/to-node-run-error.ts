import type { NodeRunError } from './node-runner';

/**
 * Reduces any thrown value (n8n `NodeApiError`, `NodeOperationError`, ours, or the plain
 * `{ message, stack }` object n8n-core stores for an ordinary `Error` thrown by a node) to
 * what the model should read. Stacks are dropped.
 */
export function toNodeRunError(error: unknown): NodeRunError {
	if (typeof error !== 'object' || error === null) return { message: String(error) };
	const details = error as {
		message?: unknown;
		name?: unknown;
		description?: unknown;
		httpCode?: unknown;
	};
	const message =
		typeof details.message === 'string' && details.message !== ''
			? details.message
			: 'Unknown error';
	const result: NodeRunError = { message };
	if (typeof details.name === 'string' && details.name !== 'Error') result.name = details.name;
	if (
		typeof details.description === 'string' &&
		details.description &&
		details.description !== message
	) {
		result.description = details.description;
	}
	if (typeof details.httpCode === 'string' && details.httpCode) result.httpCode = details.httpCode;
	return result;
}
