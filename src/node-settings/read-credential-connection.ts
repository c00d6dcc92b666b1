import { AgentConfigurationError } from '../errors/agent-configuration-error';
import { openRouterBaseUrl } from '../chat/is-openrouter-url';
import { parseExtraHeaders } from '../agent/parse-extra-headers';
import type { CredentialGetter, NodeParameterGetter } from './node-parameter-getter';

/** Where the node's credential points: base URL, key and the credential's extra headers. */
export interface CredentialConnection {
	baseUrl: string;
	/** Empty when the credential has none (a local server). */
	apiKey: string;
	headers: Record<string, string>;
}

/**
 * Reads the node's "Credential Type" parameter and that credential (n8n's `openRouterApi` or
 * our `openAiCompatibleApi`): base URL (OpenRouter's when the credential has none), API key
 * and, for the OpenAI-compatible credential, its extra headers.
 *
 * @throws {AgentConfigurationError} for a credential without a base URL or with extra headers
 * that are not a JSON object.
 * @throws {AgentConfigurationError} `credential` when the node has no credential set.
 * @throws what `getCredential` throws otherwise.
 */
export async function readCredentialConnection(
	get: NodeParameterGetter,
	getCredential: CredentialGetter,
): Promise<CredentialConnection> {
	const authentication = get('authentication', 'openRouterApi') as string;
	const credentials = await getCredential(authentication).catch((error: unknown) => {
		// The credential is optional on the node (a connected Chat Model needs none): say what is missing.
		if (error instanceof Error && /does not have any credentials set/i.test(error.message)) {
			throw new AgentConfigurationError(
				'credential',
				`No ${authentication === 'openAiCompatibleApi' ? 'OpenAI-compatible API' : 'OpenRouter'} credential is set and no Chat Model is connected. Select a credential, or connect a chat model sub-node to the Chat Model input.`,
				{ cause: error },
			);
		}
		throw error;
	});
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	const headers =
		authentication === 'openAiCompatibleApi' ? parseExtraHeaders(credentials.extraHeaders) : {};
	const baseUrl =
		typeof credentials.url === 'string' && credentials.url.trim() !== ''
			? credentials.url.trim()
			: authentication === 'openRouterApi'
				? openRouterBaseUrl
				: '';
	if (baseUrl === '')
		throw new AgentConfigurationError(
			'url',
			'The credential has no base URL. Set it to the server address, e.g. http://localhost:11434/v1.',
		);
	return { baseUrl, apiKey, headers };
}
