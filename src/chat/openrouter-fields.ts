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
