import type { ChatMessage, ChatRequest, ContentPart, TextPart } from './types';

/**
 * OpenRouter's provider routing preferences (`provider` in the request body), as
 * documented at openrouter.ai/docs/features/provider-routing. Only the fields given are sent.
 */
export interface ProviderPreferences {
	/** Provider slugs to try first, in order, e.g. `["anthropic", "amazon-bedrock"]`. */
	order?: string[];
	/** Only these providers. */
	only?: string[];
	/** Never these providers. */
	ignore?: string[];
	/** Prefer the cheapest, the fastest or the lowest-latency provider. */
	sort?: 'price' | 'throughput' | 'latency';
	/** Whether other providers may serve the request when the preferred ones fail (default true). */
	allow_fallbacks?: boolean;
	/** Only providers that support every parameter of the request (tools, response_format …). */
	require_parameters?: boolean;
	/** `deny`: only providers that do not store or train on the data. */
	data_collection?: 'allow' | 'deny';
	/** Highest price per million tokens (USD) the request may be served at. */
	max_price?: { prompt?: number; completion?: number; request?: number; image?: number };
	[key: string]: unknown;
}

/** The request fields only OpenRouter understands; other servers must not receive them. */
const openRouterOnlyFields = ['models', 'provider'] as const;

/**
 * The request as a server that is not OpenRouter gets it: without `models` and `provider`,
 * and without `cache_control` on content parts (a system message whose parts are all text
 * becomes a plain string again). Returns the fallback models that were in `models` (after
 * the primary `model`), for a client-side fallback. The input is not changed.
 */
export function withoutOpenRouterFields(request: ChatRequest): {
	request: ChatRequest;
	fallbackModels: string[];
} {
	const fallbackModels = Array.isArray(request.models)
		? (request.models as unknown[]).filter(
				(model): model is string => typeof model === 'string' && model !== request.model,
			)
		: [];
	if (
		!openRouterOnlyFields.some((field) => field in request) &&
		!request.messages.some(hasCacheControl)
	)
		return { request, fallbackModels };
	const stripped: ChatRequest = { ...request, messages: request.messages.map(withoutCacheControl) };
	for (const field of openRouterOnlyFields) delete stripped[field];
	return { request: stripped, fallbackModels };
}

function hasCacheControl(message: ChatMessage): boolean {
	return (
		Array.isArray(message.content) &&
		(message.content as ContentPart[]).some((part) => 'cache_control' in part)
	);
}

function withoutCacheControl(message: ChatMessage): ChatMessage {
	if (!hasCacheControl(message)) return message;
	const parts = (message.content as ContentPart[]).map((part) => {
		if (!('cache_control' in part)) return part;
		const { cache_control: _breakpoint, ...rest } = part as TextPart;
		return rest;
	});
	// Messages we split into parts only to mark them go back to the plain text they were.
	if (
		(message.role === 'system' || message.role === 'tool') &&
		parts.every((part) => part.type === 'text')
	) {
		return {
			...message,
			content: (parts as TextPart[]).map((part) => part.text).join(''),
		} as ChatMessage;
	}
	return { ...message, content: parts } as ChatMessage;
}
