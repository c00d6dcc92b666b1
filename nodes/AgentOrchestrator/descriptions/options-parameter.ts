import type { INodeProperties } from 'n8n-workflow';

/** The node's "Options" collection; names match `AgentNodeOptions` in src/agent. */
export const optionsParameter: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Allow Provider Fallbacks (OpenRouter)',
			name: 'allowFallbacks',
			type: 'boolean',
			default: true,
			description:
				'Whether OpenRouter may use other providers when the preferred ones fail (provider.allow_fallbacks)',
		},
		{
			displayName: 'Batch Processing',
			name: 'batching',
			type: 'collection',
			placeholder: 'Add Batch Processing Option',
			description: "Batch processing options for rate limiting (as on n8n's AI Agent)",
			default: {},
			options: [
				{
					displayName: 'Batch Size',
					name: 'batchSize',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 1,
					description:
						'How many items to process in parallel; batches run one after another. With Tool Execution "Engine" it bounds how many items\' model calls run at once in each round. This is useful for rate limiting, but might impact the log output ordering.',
				},
				{
					displayName: 'Delay Between Batches',
					name: 'delayBetweenBatches',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 0,
					description: 'Delay in milliseconds between batches. This is useful for rate limiting.',
				},
			],
		},
		{
			displayName: 'Binary Input',
			name: 'binaryInput',
			type: 'options',
			options: [
				{ name: 'None', value: 'none', description: 'Only the prompt text goes to the model' },
				{
					name: 'Images',
					value: 'images',
					description:
						"The item's PNG, JPEG, GIF and WebP files go with the prompt (a vision model is needed)",
				},
				{
					name: 'Images and Documents',
					value: 'imagesAndDocuments',
					description: 'Images and PDF files go with the prompt (as OpenRouter/OpenAI file parts)',
				},
			],
			default: 'none',
			description:
				"Whether the item's binary files are sent to the model with the prompt. Files of other types are skipped. Chat memory keeps a note such as [image: photo.png] instead of the file.",
		},
		{
			displayName: 'Binary Property Names',
			name: 'binaryPropertyNames',
			type: 'string',
			default: '',
			placeholder: 'e.g. data, invoice',
			description:
				'With Binary Input: the binary properties to send, comma-separated. Empty: every binary property of the item. A property named here must exist and hold an image (or a PDF with Images and Documents).',
		},
		{
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
		{
			displayName: 'Extra Headers',
			name: 'extraHeaders',
			type: 'json',
			default: '{}',
			description:
				'HTTP headers sent with every model call, as a JSON object, e.g. {"X-Request-Source": "crm"}. They override the credential\'s.',
		},
		{
			displayName: 'Fallback Models',
			name: 'fallbackModels',
			type: 'string',
			default: '',
			placeholder: 'openai/gpt-4o-mini, google/gemini-2.5-flash',
			description:
				'Comma-separated models to use when the main model fails. OpenRouter picks among them (models); other servers are tried in order by this node. The output (Full) names the model that answered.',
		},
		{
			displayName: 'First Token Timeout (Seconds)',
			name: 'firstTokenTimeout',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 60,
			description:
				'How long a model call may wait for its first token before it is retried. Applies also when not added (60). 0: no limit.',
		},
		{
			displayName: 'Frequency Penalty',
			name: 'frequencyPenalty',
			type: 'number',
			typeOptions: { minValue: -2, maxValue: 2, numberPrecision: 2 },
			default: 0,
			description: 'Penalizes tokens by how often they already appeared (-2 to 2)',
		},
		{
			displayName: 'Max Binary Size (MB)',
			name: 'maxBinaryMb',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 20,
			description:
				"With Binary Input: the largest file that may be sent, per file. A larger one fails the item. 0: no limit (the provider's own still applies).",
		},
		{
			displayName: 'Max Price Completion (OpenRouter)',
			name: 'maxPriceCompletion',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 4 },
			default: 0,
			description:
				'Highest price in USD per million completion tokens (provider.max_price.completion)',
		},
		{
			displayName: 'Max Price Prompt (OpenRouter)',
			name: 'maxPricePrompt',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 4 },
			default: 0,
			description: 'Highest price in USD per million prompt tokens (provider.max_price.prompt)',
		},
		{
			displayName: 'Output Format',
			name: 'outputFormat',
			type: 'options',
			options: [
				{ name: 'Text', value: 'text', description: 'Output: the answer text' },
				{
					name: 'JSON',
					value: 'json',
					description: 'Output: the answer as a validated JSON object (set Output Schema)',
				},
				{
					name: 'Full',
					value: 'full',
					description:
						'The answer plus steps, usage, cost, iterations, finish reason and the model that answered',
				},
			],
			default: 'text',
		},
		{
			displayName: 'Output Schema',
			name: 'outputSchema',
			type: 'json',
			default: '',
			description:
				'For JSON (or Full): a JSON Schema of the answer, or an example answer (see Output Schema From). Tools still work; the final answer is then constrained, validated and repaired once.',
		},
		{
			displayName: 'Output Schema From',
			name: 'outputSchemaFrom',
			type: 'options',
			options: [
				{ name: 'JSON Schema', value: 'schema' },
				{
					name: 'Example',
					value: 'example',
					description: 'Infer the schema from an example answer',
				},
			],
			default: 'schema',
		},
		{
			displayName: 'Output Strategy',
			name: 'outputStrategy',
			type: 'options',
			options: [
				{
					name: 'Auto',
					value: 'auto',
					description:
						'A forced final_answer tool for Anthropic models, response_format for others',
				},
				{
					name: 'Response Format',
					value: 'responseFormat',
					description: 'response_format: json_schema',
				},
				{
					name: 'Final Answer Tool',
					value: 'tool',
					description: 'A forced call of a final_answer tool',
				},
			],
			default: 'auto',
			description: 'How the JSON answer is constrained',
		},
		{
			displayName: 'Presence Penalty',
			name: 'presencePenalty',
			type: 'number',
			typeOptions: { minValue: -2, maxValue: 2, numberPrecision: 2 },
			default: 0,
			description: 'Penalizes tokens that already appeared at all (-2 to 2)',
		},
		{
			displayName: 'Prompt Caching (OpenRouter)',
			name: 'promptCaching',
			type: 'boolean',
			default: true,
			description:
				'Whether to mark the system message and long tool results for caching (cache_control) on Anthropic and Gemini models',
		},
		{
			displayName: 'Provider Ignore (OpenRouter)',
			name: 'providerIgnore',
			type: 'string',
			default: '',
			placeholder: 'deepinfra',
			description: 'Comma-separated provider slugs never to use (provider.ignore)',
		},
		{
			displayName: 'Provider Only (OpenRouter)',
			name: 'providerOnly',
			type: 'string',
			default: '',
			placeholder: 'anthropic, amazon-bedrock',
			description: 'Comma-separated provider slugs to use exclusively (provider.only)',
		},
		{
			displayName: 'Provider Options',
			name: 'providerOptions',
			type: 'json',
			default: '{}',
			description:
				'Extra fields merged into the request body (top-level keys win), e.g. {"transforms": ["middle-out"]}',
		},
		{
			displayName: 'Provider Order (OpenRouter)',
			name: 'providerOrder',
			type: 'string',
			default: '',
			placeholder: 'anthropic, google-vertex',
			description: 'Comma-separated provider slugs to try first (provider.order)',
		},
		{
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
		{
			displayName: 'Require Parameters (OpenRouter)',
			name: 'requireParameters',
			type: 'boolean',
			default: true,
			description:
				'Whether only providers that support every request parameter (tools, response_format …) may serve it (provider.require_parameters)',
		},
		{
			displayName: 'Run Timeout (Seconds)',
			name: 'runTimeout',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 600,
			description:
				'How long the whole agent run (all model calls and tools) may take; a tool still running then is stopped. Applies also when not added (600). 0: no limit.',
		},
		{
			displayName: 'Seed',
			name: 'seed',
			type: 'number',
			default: 0,
			description: 'Seed for repeatable sampling, where the provider supports it',
		},
		{
			displayName: 'Stall Timeout (Seconds)',
			name: 'stallTimeout',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 30,
			description:
				'How long a started answer may send nothing before it counts as stalled and is requested again. Applies also when not added (30). 0: no limit.',
		},
		{
			displayName: 'Stop Sequences',
			name: 'stopSequences',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description:
				'Up to 4 sequences that end the answer: one per line, or a JSON array such as ["END", "###"]',
		},
		{
			displayName: 'Tool Name',
			name: 'toolChoiceName',
			type: 'string',
			default: '',
			placeholder: 'Hash_text',
			description: 'For Tool Choice "A Specific Tool": the tool the first call must use',
		},
		{
			displayName: 'Tool Timeout (Seconds)',
			name: 'toolTimeout',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 120,
			description:
				'How long one tool call may run before it is stopped and the model is told. Applies also when not added (120). 0: no limit. Only with "Tool Execution" In-Process (and nested agents, which run in-process): with Engine, n8n runs each tool node itself and cannot stop it, so set a timeout on the tool node (e.g. HTTP Request\'s "Timeout").',
		},
		{
			displayName: 'Top K',
			name: 'topK',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 40,
			description: 'Sample only from the K most likely tokens (not supported by OpenAI models)',
		},
		{
			displayName: 'Top P',
			name: 'topP',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
			default: 1,
			description:
				'Nucleus sampling: sample only from the tokens that make up this probability mass',
		},
		{
			displayName: 'Debug Log',
			name: 'debugLog',
			type: 'boolean',
			default: false,
			description:
				'Whether to write a [DEBUG] line for each step (iteration, model response, tool call, result) to the stream and to the output as debugLog. API keys are redacted.',
		},
		{
			displayName: 'On Memory Error',
			name: 'onMemoryError',
			type: 'options',
			options: [
				{
					name: 'Continue',
					value: 'continue',
					description:
						'Answer without the conversation history when the memory cannot be loaded; return the answer with a warning when it cannot be saved',
				},
				{
					name: 'Fail',
					value: 'fail',
					description: 'Fail the item when the memory cannot be loaded or saved',
				},
			],
			default: 'continue',
			description:
				'What to do when the connected memory fails. Warnings go to the output (warnings) and the debug log.',
		},
		{
			displayName: 'Max Iterations',
			name: 'maxIterations',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 20,
			description: 'How many model calls that request tools may happen before the loop stops',
		},
		{
			displayName: 'Max Tokens',
			name: 'maxTokens',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 4096,
			description: 'The maximum number of tokens the model may generate per call',
		},
		{
			displayName: 'On Max Iterations',
			name: 'maxIterationsBehavior',
			type: 'options',
			options: [
				{
					name: 'Error',
					value: 'error',
					description: 'Fail the item; the tool steps so far are attached to the error',
				},
				{
					name: 'Final Answer',
					value: 'finalAnswer',
					description: 'Make one last call without tools and use its text as the answer',
				},
			],
			default: 'error',
		},
		{
			displayName: 'Parallel Tool Calls',
			name: 'parallelToolCalls',
			type: 'boolean',
			default: true,
			description: 'Whether the model may call several tools in one turn (they run concurrently)',
		},
		{
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
		{
			displayName: 'Repeated Call Limit',
			name: 'repeatedCallLimit',
			type: 'number',
			typeOptions: { minValue: 2 },
			default: 3,
			description:
				'After this many identical calls (same tool, same arguments) the model is told to stop repeating; one more stops the loop',
		},
		{
			displayName: 'Return Intermediate Steps',
			name: 'returnIntermediateSteps',
			type: 'boolean',
			default: false,
			description:
				'Whether to add steps (tool, arguments, result, duration), usage, iterations and reasoning to the output',
		},
		{
			displayName: 'System Message',
			name: 'systemMessage',
			type: 'string',
			default: 'You are a helpful assistant.',
			typeOptions: { rows: 4 },
			description: 'The instructions the model receives before the conversation',
		},
		{
			displayName: 'Temperature',
			name: 'temperature',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 2 },
			default: 0.7,
			description: 'Sampling temperature; lower is more deterministic',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 300,
			description:
				'How long one model call may take in all (retries included, however steadily the server sends) before it is aborted. Applies also when not added (300). 0: no limit.',
		},
		{
			displayName: 'Tool Choice',
			name: 'toolChoice',
			type: 'options',
			options: [
				{ name: 'Auto', value: 'auto', description: 'The model decides whether to call tools' },
				{ name: 'None', value: 'none', description: 'The model must not call tools' },
				{
					name: 'Required',
					value: 'required',
					description: 'The first call must use a tool; later calls are free to answer',
				},
				{
					name: 'A Specific Tool',
					value: 'tool',
					description: 'The first call must use the tool named in "Tool Name"',
				},
			],
			default: 'auto',
		},
		{
			displayName: 'Tool Concurrency',
			name: 'toolConcurrency',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 4,
			description: 'How many tool calls of one turn run at the same time',
		},
		{
			displayName: 'Tool Execution',
			name: 'toolExecution',
			type: 'options',
			options: [
				{
					name: 'Engine (Each Tool Call Is a Node Run)',
					value: 'engine',
					description:
						"n8n's engine runs each tool call as its own node run (in the execution log, with retry and human review gates), then resumes this node",
				},
				{
					name: 'In-Process',
					value: 'inProcess',
					description:
						'This node calls the tools itself, concurrently. Human review (…HitlTool) gates do not work this way.',
				},
			],
			default: 'engine',
			description:
				'How tool calls run. In-process is used anyway where the engine cannot take requests (e.g. when this node itself runs as a tool).',
		},
	],
};
