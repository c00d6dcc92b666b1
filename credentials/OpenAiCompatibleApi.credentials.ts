import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { parseExtraHeaders } from '../src/agent/parse-extra-headers';

/**
 * Any server that speaks OpenAI's Chat Completions API (Ollama, vLLM, LM Studio,
 * Together, OpenRouter…): a base URL, an optional API key and optional extra headers.
 */
export class OpenAiCompatibleApi implements ICredentialType {
	name = 'openAiCompatibleApi';

	displayName = 'OpenAI-Compatible API';

	icon = { light: 'file:openAiCompatible.svg', dark: 'file:openAiCompatible.dark.svg' } as const;

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-toolbridge';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'url',
			type: 'string',
			default: 'https://openrouter.ai/api/v1',
			placeholder: 'http://localhost:11434/v1',
			required: true,
			description: 'The URL the Chat Completions path is appended to (…/chat/completions)',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'Sent as a Bearer token. Leave empty for servers without authentication.',
		},
		{
			displayName: 'Extra Headers (JSON)',
			name: 'extraHeaders',
			type: 'json',
			default: '{}',
			description: 'Additional HTTP headers sent with every request, as a JSON object of strings',
		},
	];

	/** Adds the Bearer token and the extra headers to a request n8n makes with this credential. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const headers: Record<string, string> = {
			...(requestOptions.headers as Record<string, string> | undefined),
		};
		const extra = parseExtraHeaders(credentials.extraHeaders);
		Object.assign(headers, extra);
		if (typeof credentials.apiKey === 'string' && credentials.apiKey !== '') {
			headers.Authorization = `Bearer ${credentials.apiKey}`;
		}
		return { ...requestOptions, headers };
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ String($credentials.url).replace(/\\/+$/, "") }}',
			url: '/models',
			method: 'GET',
		},
	};
}
