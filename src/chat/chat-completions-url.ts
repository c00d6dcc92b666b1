import { ToolbridgeError } from '../errors/toolbridge-error';

/**
 * The Chat Completions endpoint for a base URL as users type it:
 * `https://openrouter.ai/api/v1`, with a trailing slash, or with `/chat/completions`
 * already on it. A bare `https://openrouter.ai` gets OpenRouter's `/api/v1`.
 * @throws ToolbridgeError `CHAT_BASE_URL_INVALID` when the text is not an http(s) URL
 */
export function chatCompletionsUrl(baseUrl: string): string {
	// A client sends many requests to one base URL: parse it once.
	if (baseUrl === lastBaseUrl && lastUrl !== undefined) return lastUrl;
	const url = completionsUrlOf(baseUrl);
	lastBaseUrl = baseUrl;
	lastUrl = url;
	return url;
}

let lastBaseUrl: string | undefined;
let lastUrl: string | undefined;

function completionsUrlOf(baseUrl: string): string {
	let url: URL;
	try {
		url = new URL(baseUrl.trim());
	} catch {
		throw new ToolbridgeError(
			'CHAT_BASE_URL_INVALID',
			`The base URL ${JSON.stringify(baseUrl)} is not a URL; expected e.g. https://openrouter.ai/api/v1.`,
		);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new ToolbridgeError(
			'CHAT_BASE_URL_INVALID',
			`The base URL ${JSON.stringify(baseUrl)} must start with http:// or https://.`,
		);
	}
	let path = url.pathname.replace(/\/+$/, '');
	path = path.replace(/\/chat\/completions$/, '');
	if (path === '' && /(^|\.)openrouter\.ai$/.test(url.hostname)) path = '/api/v1';
	url.pathname = `${path}/chat/completions`;
	return url.toString();
}
