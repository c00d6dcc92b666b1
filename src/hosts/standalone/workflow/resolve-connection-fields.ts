import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import { openRouterBaseUrl } from '../../../chat/is-openrouter-url';

/** What the caller gives on top of the workflow: flags of `toolbridge run`, or library options. */
export interface ConnectionOverrides {
	baseUrl?: string;
	apiKey?: string;
	/** Environment read for `OPENROUTER_API_KEY`, `OPENAI_BASE_URL`, `OPENROUTER_BASE_URL`. */
	env?: NodeJS.ProcessEnv;
}

/** The credential fields the chat client needs, with where each came from. */
export interface ConnectionFields {
	apiKey: string;
	url: string;
	/** Extra headers of an OpenAI-compatible credential, as the credential holds them. */
	extraHeaders?: unknown;
}

/**
 * Merges base URL and API key, highest priority first: the overrides, the credential record
 * the workflow references (supplied with `--credentials`), the environment
 * (`OPENROUTER_API_KEY`; `OPENAI_BASE_URL`, then `OPENROUTER_BASE_URL`), OpenRouter's URL.
 * Empty strings count as not given.
 */
export function resolveConnectionFields(
	record: ICredentialDataDecryptedObject | undefined,
	overrides: ConnectionOverrides,
): ConnectionFields {
	const env = overrides.env ?? process.env;
	const apiKey = firstText(overrides.apiKey, record?.apiKey, env.OPENROUTER_API_KEY) ?? '';
	const url =
		firstText(overrides.baseUrl, record?.url, env.OPENAI_BASE_URL, env.OPENROUTER_BASE_URL) ??
		openRouterBaseUrl;
	return { apiKey, url, extraHeaders: record?.extraHeaders };
}

/**
 * Checks that a run can authenticate: a key is required except for a server on the
 * loopback interface (Ollama, LM Studio and vLLM on this machine usually take none).
 *
 * @throws {AgentConfigurationError} (setting `apiKey`) when the key is missing, naming every
 * way to give one; (setting `url`) when the base URL is not an http(s) URL.
 */
export function assertConnectionUsable(fields: ConnectionFields, credentialHint: string): void {
	let host: string;
	try {
		const parsed = new URL(fields.url);
		if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
			throw new Error(parsed.protocol);
		host = parsed.hostname;
	} catch {
		throw new AgentConfigurationError(
			'url',
			`The base URL "${fields.url}" is not an http(s) URL. Give one with --base-url, e.g. https://openrouter.ai/api/v1 or http://localhost:11434/v1.`,
		);
	}
	if (fields.apiKey !== '' || isLoopback(host)) return;
	throw new AgentConfigurationError(
		'apiKey',
		`No API key for ${fields.url}. Give one with --api-key KEY, set OPENROUTER_API_KEY, or supply ${credentialHint} with --credentials FILE.`,
	);
}

function firstText(...values: unknown[]): string | undefined {
	for (const value of values)
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
	return undefined;
}

function isLoopback(host: string): boolean {
	return (
		host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
	);
}
