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

/** 400: the request had invalid or unsupported parameters. */
export class BadRequestError extends ApiCallError {
	constructor(message: string, details: ApiCallErrorDetails) {
		super(message, details, 'CHAT_BAD_REQUEST');
		this.name = 'BadRequestError';
	}
}

/** 401: the API key is missing, invalid or expired. */
export class AuthenticationError extends ApiCallError {
	constructor(message: string, details: ApiCallErrorDetails) {
		super(message, details, 'CHAT_AUTHENTICATION');
		this.name = 'AuthenticationError';
	}
}

/** 402: the account has too few credits for this request. */
export class InsufficientCreditsError extends ApiCallError {
	constructor(message: string, details: ApiCallErrorDetails) {
		super(message, details, 'CHAT_INSUFFICIENT_CREDITS');
		this.name = 'InsufficientCreditsError';
	}
}

/** 403: refused, e.g. by moderation or a guardrail. */
export class PermissionDeniedError extends ApiCallError {
	constructor(message: string, details: ApiCallErrorDetails) {
		super(message, details, 'CHAT_PERMISSION_DENIED');
		this.name = 'PermissionDeniedError';
	}
}

/** 408: the provider timed out answering. */
export class ProviderTimeoutError extends ApiCallError {
	constructor(message: string, details: ApiCallErrorDetails) {
		super(message, details, 'CHAT_PROVIDER_TIMEOUT');
		this.name = 'ProviderTimeoutError';
	}
}

/** 429: rate limited; `retryAfterMs` says how long to wait when the server said so. */
export class RateLimitError extends ApiCallError {
	constructor(message: string, details: ApiCallErrorDetails) {
		super(message, details, 'CHAT_RATE_LIMITED');
		this.name = 'RateLimitError';
	}
}

/** 502 / 503: the model's provider is down or no provider can serve the request. */
export class ProviderUnavailableError extends ApiCallError {
	constructor(message: string, details: ApiCallErrorDetails) {
		super(message, details, 'CHAT_PROVIDER_UNAVAILABLE');
		this.name = 'ProviderUnavailableError';
	}
}

/** Any other 5xx. */
export class ServerError extends ApiCallError {
	constructor(message: string, details: ApiCallErrorDetails) {
		super(message, details, 'CHAT_SERVER_ERROR');
		this.name = 'ServerError';
	}
}

const hints: Record<number, string> = {
	400: 'the request had invalid parameters',
	401: 'the API key is missing, invalid or expired',
	402: 'the account has too few credits',
	403: 'the request was refused (moderation or guardrail)',
	408: 'the provider timed out',
	429: 'rate limited',
	502: 'the model provider is down or returned an invalid response',
	503: 'no provider is available for this model and request',
};

/**
 * Builds the error for an HTTP error status: the ONE place that maps status → class.
 * The message names the status, what it usually means and the provider's own message.
 * @param providerMessage `error.message` from the body, already stripped of secrets
 */
export function createApiCallError(details: ApiCallErrorDetails, providerMessage?: string): ApiCallError {
	const { status } = details;
	const hint = hints[status] ?? (status >= 500 ? 'server error' : 'request failed');
	const message = `Chat API returned HTTP ${status} (${hint})${providerMessage ? `: ${providerMessage}` : ''}`;
	switch (status) {
		case 400:
			return new BadRequestError(message, details);
		case 401:
			return new AuthenticationError(message, details);
		case 402:
			return new InsufficientCreditsError(message, details);
		case 403:
			return new PermissionDeniedError(message, details);
		case 408:
			return new ProviderTimeoutError(message, details);
		case 429:
			return new RateLimitError(message, details);
		case 502:
		case 503:
			return new ProviderUnavailableError(message, details);
		default:
			return status >= 500 ? new ServerError(message, details) : new ApiCallError(message, details);
	}
}
