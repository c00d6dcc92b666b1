/**
 * Issue 9, request options at the wire: what the fake server receives for every option,
 * through the real chat caller. OpenRouter is reached by its real URL with a fetch that
 * redirects openrouter.ai to the loopback fake, so the caller's URL detection is exercised.
 */
import { describe, expect, it } from 'vitest';
import type { AgentConfig } from '../../src/agent/agent-state';
import {
	createChatModelCaller,
	type ChatConnection,
} from '../../src/agent/create-chat-model-caller';
import { readLoopOptions } from '../../src/node-settings/read-loop-options';
import { readModelOptions } from '../../src/node-settings/read-model-options';
import { runAgent } from '../../src/agent/run-agent';
import { textReply, toolCallReply } from '../support/fake-chat-server';
import { fakeChatServerForFile } from '../support/fake-chat-server-hooks';
import { sha256Tool } from './test-tools';

const server = fakeChatServerForFile({
	respond: ({ body }) => {
		const results = (body.messages as Array<{ role: string }>).filter(
			(message) => message.role === 'tool',
		);
		if (body.tools && results.length === 0 && String(body.messages.at(-1).content).includes('hash'))
			return toolCallReply([{ id: 'c1', name: 'sha256', arguments: { text: 'x'.repeat(10) } }]);
		return textReply('ok');
	},
});

/** A fetch that sends openrouter.ai requests to the fake. */
function viaOpenRouter(): ChatConnection {
	return {
		baseUrl: 'https://openrouter.ai/api/v1',
		apiKey: 'sk-or-test-key',
		retry: { maxRetries: 0 },
		fetch: (input, init) =>
			fetch(String(input).replace('https://openrouter.ai/api/v1', server.baseUrl), init),
	};
}

const everyOption: Partial<AgentConfig> = {
	systemMessage: 'Be brief.',
	temperature: 0.2,
	maxTokens: 300,
	topP: 0.9,
	topK: 40,
	frequencyPenalty: 0.5,
	presencePenalty: -0.5,
	seed: 7,
	stop: ['END', '###'],
	toolChoice: { name: 'sha256' },
	parallelToolCalls: false,
	reasoning: { effort: 'low' },
	fallbackModels: ['openai/gpt-4o-mini', 'google/gemini-2.5-flash'],
	providerPreferences: {
		order: ['anthropic', 'amazon-bedrock'],
		only: ['anthropic', 'amazon-bedrock'],
		ignore: ['deepinfra'],
		sort: 'price',
		allow_fallbacks: false,
		require_parameters: true,
		data_collection: 'deny',
		max_price: { prompt: 3, completion: 15 },
	},
	promptCaching: true,
	providerOptions: { transforms: ['middle-out'], user: 'user-42' },
};

async function firstBody(
	connection: ChatConnection,
	config: Partial<AgentConfig>,
	prompt = 'hi',
): Promise<Record<string, unknown>> {
	const before = server.requests.length;
	await runAgent({
		input: { config: { model: 'anthropic/claude-sonnet-4', ...config }, prompt },
		tools: [sha256Tool()],
		callModel: createChatModelCaller(connection),
	});
	return server.requests[before].body;
}

describe('request options on the wire', () => {
	it('unset options are absent', async () => {
		const body = await firstBody(viaOpenRouter(), {});
		expect(body).toMatchInlineSnapshot(`
			{
			  "messages": [
			    {
			      "content": "hi",
			      "role": "user",
			    },
			  ],
			  "model": "anthropic/claude-sonnet-4",
			  "stream": true,
			  "stream_options": {
			    "include_usage": true,
			  },
			  "tools": [
			    {
			      "function": {
			        "description": "SHA-256 hex digest of a text",
			        "name": "sha256",
			        "parameters": {
			          "additionalProperties": false,
			          "properties": {
			            "text": {
			              "description": "the text to hash",
			              "type": "string",
			            },
			          },
			          "required": [
			            "text",
			          ],
			          "type": "object",
			        },
			      },
			      "type": "function",
			    },
			  ],
			}
		`);
	});

	it('every option, to OpenRouter: sampling, tool choice, routing, caching, provider options', async () => {
		const body = await firstBody(viaOpenRouter(), everyOption);
		expect(body).toMatchInlineSnapshot(`
			{
			  "frequency_penalty": 0.5,
			  "max_tokens": 300,
			  "messages": [
			    {
			      "content": [
			        {
			          "cache_control": {
			            "type": "ephemeral",
			          },
			          "text": "Be brief.",
			          "type": "text",
			        },
			      ],
			      "role": "system",
			    },
			    {
			      "content": "hi",
			      "role": "user",
			    },
			  ],
			  "model": "anthropic/claude-sonnet-4",
			  "models": [
			    "anthropic/claude-sonnet-4",
			    "openai/gpt-4o-mini",
			    "google/gemini-2.5-flash",
			  ],
			  "parallel_tool_calls": false,
			  "presence_penalty": -0.5,
			  "provider": {
			    "allow_fallbacks": false,
			    "data_collection": "deny",
			    "ignore": [
			      "deepinfra",
			    ],
			    "max_price": {
			      "completion": 15,
			      "prompt": 3,
			    },
			    "only": [
			      "anthropic",
			      "amazon-bedrock",
			    ],
			    "order": [
			      "anthropic",
			      "amazon-bedrock",
			    ],
			    "require_parameters": true,
			    "sort": "price",
			  },
			  "reasoning": {
			    "effort": "low",
			  },
			  "seed": 7,
			  "stop": [
			    "END",
			    "###",
			  ],
			  "stream": true,
			  "stream_options": {
			    "include_usage": true,
			  },
			  "temperature": 0.2,
			  "tool_choice": {
			    "function": {
			      "name": "sha256",
			    },
			    "type": "function",
			  },
			  "tools": [
			    {
			      "function": {
			        "description": "SHA-256 hex digest of a text",
			        "name": "sha256",
			        "parameters": {
			          "additionalProperties": false,
			          "properties": {
			            "text": {
			              "description": "the text to hash",
			              "type": "string",
			            },
			          },
			          "required": [
			            "text",
			          ],
			          "type": "object",
			        },
			      },
			      "type": "function",
			    },
			  ],
			  "top_k": 40,
			  "top_p": 0.9,
			  "transforms": [
			    "middle-out",
			  ],
			  "user": "user-42",
			}
		`);
	});

	it('every option, to another OpenAI-compatible server: no OpenRouter fields', async () => {
		const body = await firstBody(
			{ baseUrl: server.baseUrl, retry: { maxRetries: 0 } },
			everyOption,
		);
		expect(body).not.toHaveProperty('models');
		expect(body).not.toHaveProperty('provider');
		expect(JSON.stringify(body)).not.toContain('cache_control');
		expect(body).toMatchInlineSnapshot(`
			{
			  "frequency_penalty": 0.5,
			  "max_tokens": 300,
			  "messages": [
			    {
			      "content": "Be brief.",
			      "role": "system",
			    },
			    {
			      "content": "hi",
			      "role": "user",
			    },
			  ],
			  "model": "anthropic/claude-sonnet-4",
			  "parallel_tool_calls": false,
			  "presence_penalty": -0.5,
			  "reasoning_effort": "low",
			  "seed": 7,
			  "stop": [
			    "END",
			    "###",
			  ],
			  "stream": true,
			  "stream_options": {
			    "include_usage": true,
			  },
			  "temperature": 0.2,
			  "tool_choice": {
			    "function": {
			      "name": "sha256",
			    },
			    "type": "function",
			  },
			  "tools": [
			    {
			      "function": {
			        "description": "SHA-256 hex digest of a text",
			        "name": "sha256",
			        "parameters": {
			          "additionalProperties": false,
			          "properties": {
			            "text": {
			              "description": "the text to hash",
			              "type": "string",
			            },
			          },
			          "required": [
			            "text",
			          ],
			          "type": "object",
			        },
			      },
			      "type": "function",
			    },
			  ],
			  "top_k": 40,
			  "top_p": 0.9,
			  "transforms": [
			    "middle-out",
			  ],
			  "user": "user-42",
			}
		`);
	});

	it('extra headers go on the wire; the API key never appears in the body', async () => {
		const before = server.requests.length;
		await firstBody({ ...viaOpenRouter(), headers: { 'X-Request-Source': 'crm' } }, {});
		const request = server.requests[before];
		expect(request.headers['x-request-source']).toBe('crm');
		expect(request.headers.authorization).toBe('Bearer sk-or-test-key');
		expect(JSON.stringify(request.body)).not.toContain('sk-or-test-key');
	});

	it('long tool results get a cache breakpoint (Anthropic and Gemini on OpenRouter), short ones and other families none', async () => {
		const longTool = {
			...sha256Tool(),
			invoke: async () => ({ content: 'y'.repeat(5000), isError: false }),
		};
		for (const [model, cached] of [
			['anthropic/claude-sonnet-4', true],
			['google/gemini-2.5-pro', true],
			['openai/gpt-4o', false],
		] as const) {
			const before = server.requests.length;
			await runAgent({
				input: {
					config: { model, systemMessage: 'S', promptCaching: true },
					prompt: 'please hash',
				},
				tools: [longTool],
				callModel: createChatModelCaller(viaOpenRouter()),
			});
			const second = server.requests[before + 1].body;
			const toolMessage = second.messages.find(
				(message: { role: string }) => message.role === 'tool',
			);
			const system = second.messages[0];
			if (cached) {
				expect(toolMessage.content).toEqual([
					{ type: 'text', text: 'y'.repeat(5000), cache_control: { type: 'ephemeral' } },
				]);
				expect(system.content).toEqual([
					{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } },
				]);
			} else {
				expect(toolMessage.content).toBe('y'.repeat(5000));
				expect(system.content).toBe('S');
			}
		}
	});

	it('tool schemas are shaped for the model family from the one canonical schema', async () => {
		const tool = {
			...sha256Tool(),
			parameters: {
				$schema: 'http://json-schema.org/draft-07/schema#',
				type: 'object',
				properties: { text: { type: 'string', format: 'email' }, tags: { type: 'array' } },
				required: ['text'],
				additionalProperties: false,
			},
		};
		const bodies: Record<string, unknown> = {};
		for (const model of ['google/gemini-2.5-pro', 'openai/gpt-4o', 'my-local-model']) {
			const before = server.requests.length;
			await runAgent({
				input: { config: { model }, prompt: 'hi' },
				tools: [tool],
				callModel: createChatModelCaller(viaOpenRouter()),
			});
			bodies[model] = (
				server.requests[before].body.tools as Array<{ function: { parameters: unknown } }>
			)[0].function.parameters;
		}
		expect(bodies['google/gemini-2.5-pro']).not.toHaveProperty('$schema');
		expect(bodies['google/gemini-2.5-pro']).not.toHaveProperty('additionalProperties');
		expect(bodies['openai/gpt-4o']).toMatchObject({
			properties: { tags: { type: 'array', items: {} } },
		});
		expect(bodies['my-local-model']).toEqual({
			type: 'object',
			properties: { text: { type: 'string', format: 'email' }, tags: { type: 'array' } },
			required: ['text'],
			additionalProperties: false,
		});
	});
});

describe('node options → config', () => {
	it('maps only what was set', () => {
		expect(readModelOptions({})).toEqual({ config: {}, connection: { headers: {} } });
		expect(readLoopOptions({})).toEqual({
			config: {},
			outputFormat: 'text',
			concurrency: 4,
			returnIntermediateSteps: false,
			debugLog: false,
			memoryErrorPolicy: 'continue',
		});
	});

	it.each([
		['auto', undefined],
		['send', true],
		['textOnly', false],
	] as const)('"Tool Images" %s → imageInput %s', (toolImages, imageInput) => {
		expect(readLoopOptions({ toolImages }).config.imageInput).toBe(imageInput);
	});

	it('maps every model option', () => {
		expect(
			readModelOptions({
				topP: 0.9,
				topK: 40,
				frequencyPenalty: 0.5,
				presencePenalty: -0.5,
				seed: 7,
				stopSequences: 'END\n###',
				extraHeaders: '{"X-Request-Source":"crm"}',
				providerOptions: '{"transforms":["middle-out"]}',
				fallbackModels: 'openai/gpt-4o-mini, google/gemini-2.5-flash',
				providerOrder: 'anthropic, amazon-bedrock',
				providerOnly: 'anthropic',
				providerIgnore: 'deepinfra',
				providerSort: 'latency',
				allowFallbacks: false,
				requireParameters: true,
				dataCollection: 'deny',
				maxPricePrompt: 3,
				maxPriceCompletion: 15,
				promptCaching: true,
				firstTokenTimeout: 20,
				stallTimeout: 10,
			}),
		).toEqual({
			config: {
				topP: 0.9,
				topK: 40,
				frequencyPenalty: 0.5,
				presencePenalty: -0.5,
				seed: 7,
				stop: ['END', '###'],
				providerOptions: { transforms: ['middle-out'] },
				fallbackModels: ['openai/gpt-4o-mini', 'google/gemini-2.5-flash'],
				providerPreferences: {
					order: ['anthropic', 'amazon-bedrock'],
					only: ['anthropic'],
					ignore: ['deepinfra'],
					sort: 'latency',
					allow_fallbacks: false,
					require_parameters: true,
					data_collection: 'deny',
					max_price: { prompt: 3, completion: 15 },
				},
				promptCaching: true,
			},
			connection: {
				headers: { 'X-Request-Source': 'crm' },
				firstTokenTimeoutMs: 20_000,
				stallTimeoutMs: 10_000,
			},
		});
	});

	it('maps every loop option', () => {
		expect(
			readLoopOptions({
				toolChoice: 'tool',
				toolChoiceName: 'Hash_text',
				outputFormat: 'json',
				outputSchemaFrom: 'example',
				outputSchema: '{"city":"Paris","population":2100000}',
				outputStrategy: 'tool',
				toolTimeout: 30,
				runTimeout: 300,
			}),
		).toMatchObject({
			config: {
				toolChoice: { name: 'Hash_text' },
				structuredOutput: {
					strategy: 'tool',
					schema: {
						type: 'object',
						properties: { city: { type: 'string' }, population: { type: 'integer' } },
						required: ['city', 'population'],
						additionalProperties: false,
					},
				},
			},
			outputFormat: 'json',
			toolTimeoutMs: 30_000,
			runTimeoutMs: 300_000,
		});
	});

	it.each([
		[{ stopSequences: 'a\nb\nc\nd\ne' }, 'At most 4 stop sequences are allowed; found 5.'],
		[{ providerOptions: '[1]' }, 'providerOptions must be a JSON object'],
	])('rejects the model option %j', (options, message) => {
		expect(() => readModelOptions(options)).toThrow(message);
	});

	it.each([
		[{ toolChoice: 'tool' as const }, 'Tool Choice is "A Specific Tool" but "Tool Name" is empty'],
		[
			{ outputFormat: 'json' as const, outputSchema: '{nope' },
			'The output JSON Schema is not JSON',
		],
	])('rejects the loop option %j', (options, message) => {
		expect(() => readLoopOptions(options)).toThrow(message);
	});
});
