/** The options {@link requestHeaders} reads (those of `ChatClientOptions`). */
export interface RequestHeaderOptions {
	apiKey?: string;
	headers?: Record<string, string>;
	appName?: string;
	appUrl?: string;
}

/**
 * The headers of a streaming Chat Completions request: JSON in, SSE out, the bearer key,
 * OpenRouter's app attribution (`HTTP-Referer`, `X-OpenRouter-Title`, `X-Title`); the
 * caller's own headers override them.
 */
export function requestHeaders(options: RequestHeaderOptions): Record<string, string> {
	const headers: Record<string, string> = {
		'Content-Type': 'application/json',
		Accept: 'text/event-stream',
	};
	if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
	if (options.appUrl) headers['HTTP-Referer'] = options.appUrl;
	if (options.appName) {
		headers['X-OpenRouter-Title'] = options.appName;
		headers['X-Title'] = options.appName;
	}
	return { ...headers, ...options.headers };
}
