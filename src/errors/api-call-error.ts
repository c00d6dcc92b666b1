import { ToolbridgeError } from './toolbridge-error';

/** What the HTTP layer knows about a failed Chat Completions response. */
export interface ApiCallErrorDetails {
	/** HTTP status of the response. */
	status: number;
	/** The provider's own error code (`error.code` in the body), when it sent one. */
	providerCode?: string | number;
	/** The raw response body, cut to a few KB, with the API key removed. */
	responseBody?: string;
	/** `Retry-After` in milliseconds, when the server sent one. */
	retryAfterMs?: number;
	/** The URL that was called (never holds credentials: the key goes in a header). */
	url?: string;
	cause?: unknown;
}

/**
 * An OpenAI-compatible API answered with an HTTP error status before streaming began.
 * Subclasses name the status families; {@link createApiCallError} is the one place that
 * maps a status to a subclass.
 */
export class ApiCallError extends ToolbridgeError {
	readonly status: number;
	readonly providerCode?: string | number;
	readonly responseBody?: string;
	readonly retryAfterMs?: number;
	readonly url?: string;

	constructor(message: string, details: ApiCallErrorDetails, code = 'CHAT_API_ERROR') {
		super(code, message, { cause: details.cause });
		this.name = 'ApiCallError';
		this.status = details.status;
		this.providerCode = details.providerCode;
		this.responseBody = details.responseBody;
		this.retryAfterMs = details.retryAfterMs;
		this.url = details.url;
	}
}

// One line each: the class's `name` and stable `code` (own fields, as the constructor's assignments were).

/** 400: the request had invalid or unsupported parameters. */
export class BadRequestError extends ApiCallError {
	override readonly name = 'BadRequestError';
	override readonly code = 'CHAT_BAD_REQUEST';
}
/** 401: the API key is missing, invalid or expired. */
export class AuthenticationError extends ApiCallError {
	override readonly name = 'AuthenticationError';
	override readonly code = 'CHAT_AUTHENTICATION';
}
/** 402: the account has too few credits for this request. */
export class InsufficientCreditsError extends ApiCallError {
	override readonly name = 'InsufficientCreditsError';
	override readonly code = 'CHAT_INSUFFICIENT_CREDITS';
}
/** 403: refused, e.g. by moderation or a guardrail. */
export class PermissionDeniedError extends ApiCallError {
	override readonly name = 'PermissionDeniedError';
	override readonly code = 'CHAT_PERMISSION_DENIED';
}
/** 408: the provider timed out answering. */
export class ProviderTimeoutError extends ApiCallError {
	override readonly name = 'ProviderTimeoutError';
	override readonly code = 'CHAT_PROVIDER_TIMEOUT';
}
/** 429: rate limited; `retryAfterMs` says how long to wait when the server said so. */
export class RateLimitError extends ApiCallError {
	override readonly name = 'RateLimitError';
	override readonly code = 'CHAT_RATE_LIMITED';
}
/** 502 / 503: the model's provider is down or no provider can serve the request. */
export class ProviderUnavailableError extends ApiCallError {
	override readonly name = 'ProviderUnavailableError';
	override readonly code = 'CHAT_PROVIDER_UNAVAILABLE';
}
/** Any other 5xx. */
export class ServerError extends ApiCallError {
	override readonly name = 'ServerError';
	override readonly code = 'CHAT_SERVER_ERROR';
}

type ApiCallErrorClass = new (message: string, details: ApiCallErrorDetails) => ApiCallError;

/** Status → class and what the status usually means (for the message). Statuses not listed: {@link ServerError} for 5xx, else {@link ApiCallError}. */
const byStatus: Readonly<Partial<Record<number, { type: ApiCallErrorClass; hint: string }>>> = {
	400: { type: BadRequestError, hint: 'the request had invalid parameters' },
	401: { type: AuthenticationError, hint: 'the API key is missing, invalid or expired' },
	402: { type: InsufficientCreditsError, hint: 'the account has too few credits' },
	403: { type: PermissionDeniedError, hint: 'the request was refused (moderation or guardrail)' },
	408: { type: ProviderTimeoutError, hint: 'the provider timed out' },
	429: { type: RateLimitError, hint: 'rate limited' },
	502: {
		type: ProviderUnavailableError,
		hint: 'the model provider is down or returned an invalid response',
	},
	503: {
		type: ProviderUnavailableError,
		hint: 'no provider is available for this model and request',
	},
};

/**
 * Builds the error for an HTTP error status: the ONE place that maps status → class.
 * The message names the status, what it usually means and the provider's own message.
 * @param providerMessage `error.message` from the body, already stripped of secrets
 */
export function createApiCallError(
	details: ApiCallErrorDetails,
	providerMessage?: string,
): ApiCallError {
	const { status } = details;
	const known = byStatus[status];
	const hint = known?.hint ?? (status >= 500 ? 'server error' : 'request failed');
	const type = known?.type ?? (status >= 500 ? ServerError : ApiCallError);
	return new type(
		`Chat API returned HTTP ${status} (${hint})${providerMessage ? `: ${providerMessage}` : ''}`,
		details,
	);
}
