import { AgentConfigurationError, type ChatConnection } from 'n8n-nodes-toolbridge';

/** OpenRouter's Chat Completions API, the default server. */
export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';
/** The model used on OpenRouter when none is given. */
export const DEFAULT_BUILDER_MODEL = 'anthropic/claude-sonnet-4.5';

/** The model flags of `toolbridge build` (the same as `toolbridge run`'s). */
export interface BuilderModelOptions {
	model?: string;
	baseUrl?: string;
	apiKey?: string;
	/** Read for `OPENROUTER_API_KEY`, `OPENAI_BASE_URL`, `OPENROUTER_BASE_URL`. Default `process.env`. */
	env?: NodeJS.ProcessEnv;
}

/**
 * The model and chat connection of a build, as `toolbridge run` resolves them: the flags, then
 * `OPENROUTER_API_KEY` and `OPENAI_BASE_URL` / `OPENROUTER_BASE_URL`, then OpenRouter. A key is
 * needed except for a server on this machine; a model is needed except on OpenRouter.
 *
 * @throws {AgentConfigurationError} naming the missing or malformed setting.
 */
export function builderConnection(options: BuilderModelOptions): {
	model: string;
	connection: ChatConnection;
} {
	const env = options.env ?? process.env;
	const baseUrl =
		firstText(options.baseUrl, env.OPENAI_BASE_URL, env.OPENROUTER_BASE_URL) ?? OPENROUTER_BASE_URL;
	const apiKey = firstText(options.apiKey, env.OPENROUTER_API_KEY);
	let host: string;
	try {
		const url = new URL(baseUrl);
		if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(url.protocol);
		host = url.hostname;
	} catch {
		throw new AgentConfigurationError(
			'url',
			`The base URL "${baseUrl}" is not an http(s) URL. Give one with --base-url, e.g. https://openrouter.ai/api/v1 or http://localhost:11434/v1.`,
		);
	}
	const loopback = host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
	if (!apiKey && !loopback)
		throw new AgentConfigurationError(
			'apiKey',
			`No API key for ${baseUrl}. Give one with --api-key KEY or set OPENROUTER_API_KEY.`,
		);
	const onOpenRouter = host === 'openrouter.ai';
	const model = firstText(options.model) ?? (onOpenRouter ? DEFAULT_BUILDER_MODEL : undefined);
	if (!model)
		throw new AgentConfigurationError(
			'model',
			`No model for ${baseUrl}: give one with --model, e.g. --model qwen3-coder.`,
		);
	return {
		model,
		connection: { baseUrl, apiKey, appName: 'toolbridge build' },
	};
}

function firstText(...values: Array<string | undefined>): string | undefined {
	for (const value of values) if (value !== undefined && value.trim() !== '') return value.trim();
	return undefined;
}
