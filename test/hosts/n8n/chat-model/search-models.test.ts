import nock from 'nock';
import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { searchModels } from '../../../../src/hosts/n8n/chat-model/search-models';

afterEach(() => nock.cleanAll());
afterAll(() => nock.restore());

const apiKey = 'sk-or-v1-models-0123456789abcdef';

function loadOptionsContext(
	credentialType: 'openRouterApi' | 'openAiCompatibleApi',
	credentials: Record<string, unknown>,
) {
	return {
		getNodeParameter: (name: string, fallback?: unknown) =>
			name === 'authentication' ? credentialType : fallback,
		getCredentials: async (type: string) => {
			if (type !== credentialType) throw new Error(`unexpected credential ${type}`);
			return credentials;
		},
	} as unknown as ILoadOptionsFunctions;
}

const openRouterModels = {
	data: [
		{
			id: 'zeta/no-tools',
			name: 'Zeta: No Tools',
			context_length: 8192,
			supported_parameters: ['temperature'],
		},
		{
			id: 'openai/gpt-4.1',
			name: 'OpenAI: GPT-4.1',
			context_length: 1047576,
			supported_parameters: ['tools', 'tool_choice'],
		},
		{
			id: 'anthropic/claude-sonnet-4',
			name: 'Anthropic: Claude Sonnet 4',
			context_length: 200000,
			supported_parameters: ['tools', 'reasoning'],
		},
		{ id: 'alpha/plain', name: 'Alpha: Plain', supported_parameters: [] },
	],
};

describe('searchModels (the Model dropdown)', () => {
	it('OpenRouter: GET /models with the key; tool-calling models first, each group by id', async () => {
		const scope = nock('https://openrouter.ai')
			.get('/api/v1/models')
			.matchHeader('authorization', `Bearer ${apiKey}`)
			.reply(200, openRouterModels);
		const { results } = await searchModels.call(loadOptionsContext('openRouterApi', { apiKey }));
		expect(results).toEqual([
			{
				name: 'Anthropic: Claude Sonnet 4',
				value: 'anthropic/claude-sonnet-4',
				description: 'anthropic/claude-sonnet-4 · 200k context',
			},
			{
				name: 'OpenAI: GPT-4.1',
				value: 'openai/gpt-4.1',
				description: 'openai/gpt-4.1 · 1048k context',
			},
			{ name: 'Alpha: Plain', value: 'alpha/plain', description: 'alpha/plain · no tool calling' },
			{
				name: 'Zeta: No Tools',
				value: 'zeta/no-tools',
				description: 'zeta/no-tools · no tool calling · 8k context',
			},
		]);
		scope.done();
	});

	it('filters by id or name, case-insensitively', async () => {
		nock('https://openrouter.ai').get('/api/v1/models').twice().reply(200, openRouterModels);
		expect(
			(
				await searchModels.call(loadOptionsContext('openRouterApi', { apiKey }), 'CLAUDE')
			).results.map((item) => item.value),
		).toEqual(['anthropic/claude-sonnet-4']);
		expect(
			(
				await searchModels.call(loadOptionsContext('openRouterApi', { apiKey }), 'gpt-4')
			).results.map((item) => item.value),
		).toEqual(['openai/gpt-4.1']);
	});

	it('an OpenAI-compatible server (no supported_parameters): its own base URL and extra headers, models by id', async () => {
		const scope = nock('http://localhost:11434')
			.get('/v1/models')
			.matchHeader('x-team', 'blue')
			.reply(200, {
				object: 'list',
				data: [
					{ id: 'qwen3', object: 'model' },
					{ id: 'llama3.1', object: 'model' },
				],
			});
		const { results } = await searchModels.call(
			loadOptionsContext('openAiCompatibleApi', {
				url: 'http://localhost:11434/v1/',
				apiKey: '',
				extraHeaders: '{"X-Team":"blue"}',
			}),
		);
		expect(results).toEqual([
			{ name: 'llama3.1', value: 'llama3.1' },
			{ name: 'qwen3', value: 'qwen3' },
		]);
		scope.done();
	});

	it('an error status is a clear error naming the URL and the server message, without the key', async () => {
		nock('https://openrouter.ai')
			.get('/api/v1/models')
			.reply(401, { error: { code: 401, message: `No auth credentials found for ${apiKey}` } });
		const error = (await searchModels
			.call(loadOptionsContext('openRouterApi', { apiKey }))
			.catch((caught: unknown) => caught)) as Error & { code: string };
		expect(error.code).toBe('MODEL_LIST_FAILED');
		expect(error.message).toContain(
			'https://openrouter.ai/api/v1/models: HTTP 401: No auth credentials found for [REDACTED]',
		);
		expect(`${error.message} ${error.stack}`).not.toContain(apiKey);
	});

	it('an answer without a data list, and a failed connection, are clear errors too', async () => {
		nock('https://openrouter.ai').get('/api/v1/models').reply(200, '<html>');
		await expect(
			searchModels.call(loadOptionsContext('openRouterApi', { apiKey })),
		).rejects.toThrow(/no "data" list of models/);
		nock('https://openrouter.ai').get('/api/v1/models').replyWithError('connect ECONNREFUSED');
		await expect(
			searchModels.call(loadOptionsContext('openRouterApi', { apiKey })),
		).rejects.toThrow(/the connection failed/);
	});
});
