/** OpenRouter's Chat Completions base URL: the default when no base URL is given. */
export const openRouterBaseUrl = 'https://openrouter.ai/api/v1';

/**
 * True when a base URL points at OpenRouter (`openrouter.ai` or a subdomain). Only then
 * are OpenRouter's own request fields (`models`, `provider`, `cache_control`) sent.
 * An unreadable URL is not OpenRouter.
 */
export function isOpenRouterUrl(baseUrl: string): boolean {
	try {
		return /(^|\.)openrouter\.ai$/i.test(new URL(baseUrl.trim()).hostname);
	} catch {
		return false;
	}
}
