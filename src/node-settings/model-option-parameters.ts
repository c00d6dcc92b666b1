import type { INodeProperties } from 'n8n-workflow';
import type { ModelOptionKey } from '../agent/model-options';
import {
	readExtraHeaders,
	readFallbackModels,
	readProviderOptions,
	readReasoningEffort,
	readStop,
	toConfig,
	toConnectionMs,
	toMaxPrice,
	toProvider,
	toProviderChoice,
	toProviderList,
	type ModelConnectionOptions,
	type ReadModelOption,
} from './model-option-reads';

/** One parameter of the nodes' "Options" that concerns the model call. */
export interface ModelOptionParameter {
	/** The setting it fills: a model option (`agent/model-options`) or a connection setting. */
	sets: ModelOptionKey | keyof ModelConnectionOptions;
	/** Reads the value n8n hands over (only options the user added are handed over, so only they are sent). */
	read: ReadModelOption;
	/** The parameter as n8n shows it in the orchestrator's "Options" (and, unless said below, the sub-node's). */
	property: INodeProperties;
	/** The sub-node's own description, where the orchestrator's speaks of the agent's output. */
	subNodeDescription?: string;
}

/**
 * THE model options of both nodes, the Agent Orchestrator and the Toolbridge Chat Model: each
 * parameter (as n8n shows it), the setting it fills and how its value is read. Both nodes'
 * "Options" show these properties (the orchestrator's list adds its loop options and gives
 * the order), and both nodes' readers — inside n8n and in the standalone host, which runs
 * the same readers — read them through `readModelOptions`. Rows are in the order the
 * values are written (`provider`'s keys come out in OpenRouter's documented order); each
 * row's key is its parameter's name.
 */
export const modelOptionParameters = {
	promptCaching: {
		sets: 'promptCaching',
		read: toConfig('promptCaching'),
		property: {
			displayName: 'Prompt Caching (OpenRouter)',
			name: 'promptCaching',
			type: 'boolean',
			default: true,
			description:
				'Whether to mark the system message and long tool results for caching (cache_control) on Anthropic and Gemini models',
		},
	},
	fallbackModels: {
		sets: 'fallbackModels',
		read: readFallbackModels,
		// The sub-node has no output that names the model that answered.
		subNodeDescription:
			'Comma-separated models to use when the main model fails. OpenRouter picks among them (models); other servers are tried in order by this node.',
		property: {
			displayName: 'Fallback Models',
			name: 'fallbackModels',
			type: 'string',
			default: '',
			placeholder: 'openai/gpt-4o-mini, google/gemini-2.5-flash',
			description:
				'Comma-separated models to use when the main model fails. OpenRouter picks among them (models); other servers are tried in order by this node. The output (Full) names the model that answered.',
		},
	},
	providerOrder: {
		sets: 'providerPreferences',
		read: toProviderList('order'),
		property: {
			displayName: 'Provider Order (OpenRouter)',
			name: 'providerOrder',
			type: 'string',
			default: '',
			placeholder: 'anthropic, google-vertex',
			description: 'Comma-separated provider slugs to try first (provider.order)',
		},
	},
	providerOnly: {
		sets: 'providerPreferences',
		read: toProviderList('only'),
		property: {
			displayName: 'Provider Only (OpenRouter)',
			name: 'providerOnly',
			type: 'string',
			default: '',
			placeholder: 'anthropic, amazon-bedrock',
			description: 'Comma-separated provider slugs to use exclusively (provider.only)',
		},
	},
	providerIgnore: {
		sets: 'providerPreferences',
		read: toProviderList('ignore'),
		property: {
			displayName: 'Provider Ignore (OpenRouter)',
			name: 'providerIgnore',
			type: 'string',
			default: '',
			placeholder: 'deepinfra',
			description: 'Comma-separated provider slugs never to use (provider.ignore)',
		},
	},
	providerSort: {
		sets: 'providerPreferences',
		read: toProviderChoice('sort'),
		property: {
			displayName: 'Provider Sort (OpenRouter)',
			name: 'providerSort',
			type: 'options',
			options: [
				{ name: 'Default (Not Sent)', value: 'default' },
				{ name: 'Latency', value: 'latency' },
				{ name: 'Price', value: 'price' },
				{ name: 'Throughput', value: 'throughput' },
			],
			default: 'default',
			description: 'OpenRouter provider.sort',
		},
	},
	allowFallbacks: {
		sets: 'providerPreferences',
		read: toProvider('allow_fallbacks'),
		property: {
			displayName: 'Allow Provider Fallbacks (OpenRouter)',
			name: 'allowFallbacks',
			type: 'boolean',
			default: true,
			description:
				'Whether OpenRouter may use other providers when the preferred ones fail (provider.allow_fallbacks)',
		},
	},
	requireParameters: {
		sets: 'providerPreferences',
		read: toProvider('require_parameters'),
		property: {
			displayName: 'Require Parameters (OpenRouter)',
			name: 'requireParameters',
			type: 'boolean',
			default: true,
			description:
				'Whether only providers that support every request parameter (tools, response_format …) may serve it (provider.require_parameters)',
		},
	},
	dataCollection: {
		sets: 'providerPreferences',
		read: toProviderChoice('data_collection'),
		property: {
			displayName: 'Data Collection (OpenRouter)',
			name: 'dataCollection',
			type: 'options',
			options: [
				{ name: 'Default (Not Sent)', value: 'default' },
				{ name: 'Allow', value: 'allow' },
				{
					name: 'Deny',
					value: 'deny',
					description: 'Only providers that do not store or train on the data',
				},
			],
			default: 'default',
			description: 'OpenRouter provider.data_collection',
		},
	},
	maxPricePrompt: {
		sets: 'providerPreferences',
		read: toMaxPrice('prompt'),
		property: {
			displayName: 'Max Price Prompt (OpenRouter)',
			name: 'maxPricePrompt',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 4 },
			default: 0,
			description: 'Highest price in USD per million prompt tokens (provider.max_price.prompt)',
		},
	},
	maxPriceCompletion: {
		sets: 'providerPreferences',
		read: toMaxPrice('completion'),
		property: {
			displayName: 'Max Price Completion (OpenRouter)',
			name: 'maxPriceCompletion',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 4 },
			default: 0,
			description:
				'Highest price in USD per million completion tokens (provider.max_price.completion)',
		},
	},
	temperature: {
		sets: 'temperature',
		read: toConfig('temperature'),
		property: {
			displayName: 'Temperature',
			name: 'temperature',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 2 },
			default: 0.7,
			description: 'Sampling temperature; lower is more deterministic',
		},
	},
	maxTokens: {
		sets: 'maxTokens',
		read: toConfig('maxTokens'),
		property: {
			displayName: 'Max Tokens',
			name: 'maxTokens',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 4096,
			description: 'The maximum number of tokens the model may generate per call',
		},
	},
	topP: {
		sets: 'topP',
		read: toConfig('topP'),
		property: {
			displayName: 'Top P',
			name: 'topP',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
			default: 1,
			description:
				'Nucleus sampling: sample only from the tokens that make up this probability mass',
		},
	},
	topK: {
		sets: 'topK',
		read: toConfig('topK'),
		property: {
			displayName: 'Top K',
			name: 'topK',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 40,
			description: 'Sample only from the K most likely tokens (not supported by OpenAI models)',
		},
	},
	frequencyPenalty: {
		sets: 'frequencyPenalty',
		read: toConfig('frequencyPenalty'),
		property: {
			displayName: 'Frequency Penalty',
			name: 'frequencyPenalty',
			type: 'number',
			typeOptions: { minValue: -2, maxValue: 2, numberPrecision: 2 },
			default: 0,
			description: 'Penalizes tokens by how often they already appeared (-2 to 2)',
		},
	},
	presencePenalty: {
		sets: 'presencePenalty',
		read: toConfig('presencePenalty'),
		property: {
			displayName: 'Presence Penalty',
			name: 'presencePenalty',
			type: 'number',
			typeOptions: { minValue: -2, maxValue: 2, numberPrecision: 2 },
			default: 0,
			description: 'Penalizes tokens that already appeared at all (-2 to 2)',
		},
	},
	seed: {
		sets: 'seed',
		read: toConfig('seed'),
		property: {
			displayName: 'Seed',
			name: 'seed',
			type: 'number',
			default: 0,
			description: 'Seed for repeatable sampling, where the provider supports it',
		},
	},
	stopSequences: {
		sets: 'stop',
		read: readStop,
		property: {
			displayName: 'Stop Sequences',
			name: 'stopSequences',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description:
				'Up to 4 sequences that end the answer: one per line, or a JSON array such as ["END", "###"]',
		},
	},
	reasoningEffort: {
		sets: 'reasoning',
		read: readReasoningEffort,
		property: {
			displayName: 'Reasoning Effort',
			name: 'reasoningEffort',
			type: 'options',
			options: [
				{ name: 'Default (Not Sent)', value: 'default' },
				{ name: 'High', value: 'high' },
				{ name: 'Low', value: 'low' },
				{ name: 'Medium', value: 'medium' },
				{ name: 'Minimal', value: 'minimal' },
			],
			default: 'default',
			description:
				'How much the model should think before answering (OpenRouter `reasoning.effort`)',
		},
	},
	providerOptions: {
		sets: 'providerOptions',
		read: readProviderOptions,
		property: {
			displayName: 'Provider Options',
			name: 'providerOptions',
			type: 'json',
			default: '{}',
			description:
				'Extra fields merged into the request body (top-level keys win), e.g. {"transforms": ["middle-out"]}',
		},
	},
	extraHeaders: {
		sets: 'headers',
		read: readExtraHeaders,
		property: {
			displayName: 'Extra Headers',
			name: 'extraHeaders',
			type: 'json',
			default: '{}',
			description:
				'HTTP headers sent with every model call, as a JSON object, e.g. {"X-Request-Source": "crm"}. They override the credential\'s.',
		},
	},
	timeout: {
		sets: 'timeoutMs',
		read: toConnectionMs('timeoutMs'),
		property: {
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 300,
			description:
				'How long one model call may take in all (retries included, however steadily the server sends) before it is aborted. Applies also when not added (300). 0: no limit.',
		},
	},
	firstTokenTimeout: {
		sets: 'firstTokenTimeoutMs',
		read: toConnectionMs('firstTokenTimeoutMs'),
		property: {
			displayName: 'First Token Timeout (Seconds)',
			name: 'firstTokenTimeout',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 60,
			description:
				'How long a model call may wait for its first token before it is retried. Applies also when not added (60). 0: no limit.',
		},
	},
	stallTimeout: {
		sets: 'stallTimeoutMs',
		read: toConnectionMs('stallTimeoutMs'),
		property: {
			displayName: 'Stall Timeout (Seconds)',
			name: 'stallTimeout',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 30,
			description:
				'How long a started answer may send nothing before it counts as stalled and is requested again. Applies also when not added (30). 0: no limit.',
		},
	},
} satisfies Record<string, ModelOptionParameter>;

/** A model option parameter's name (its key in {@link modelOptionParameters}, and `property.name`). */
export type ModelOptionParameterName = keyof typeof modelOptionParameters;
