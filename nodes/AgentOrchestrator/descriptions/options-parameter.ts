import type { INodeProperties } from 'n8n-workflow';
import { modelOptionParameters } from '../../../src/node-settings/model-option-parameters';

/**
 * The node's "Options" collection, in the order n8n shows it: the model options, defined once
 * in `modelOptionParameters` (src/node-settings/model-option-parameters.ts, the table
 * both nodes and both hosts' readers share), and the loop's own options, read by
 * `readLoopOptions` (src/node-settings/read-loop-options.ts) and the drivers.
 */
export const optionsParameter: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: withEveryModelOption([
		modelOptionParameters.allowFallbacks.property,
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
		modelOptionParameters.dataCollection.property,
		modelOptionParameters.extraHeaders.property,
		modelOptionParameters.fallbackModels.property,
		modelOptionParameters.firstTokenTimeout.property,
		modelOptionParameters.frequencyPenalty.property,
		{
			displayName: 'Max Binary Size (MB)',
			name: 'maxBinaryMb',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 20,
			description:
				"With Binary Input: the largest file that may be sent, per file. A larger one fails the item. 0: no limit (the provider's own still applies).",
		},
		modelOptionParameters.maxPriceCompletion.property,
		modelOptionParameters.maxPricePrompt.property,
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
		modelOptionParameters.presencePenalty.property,
		modelOptionParameters.promptCaching.property,
		modelOptionParameters.providerIgnore.property,
		modelOptionParameters.providerOnly.property,
		modelOptionParameters.providerOptions.property,
		modelOptionParameters.providerOrder.property,
		modelOptionParameters.providerSort.property,
		modelOptionParameters.requireParameters.property,
		{
			displayName: 'Run Timeout (Seconds)',
			name: 'runTimeout',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 600,
			description:
				'How long the whole agent run (all model calls and tools) may take; a tool still running then is stopped. Applies also when not added (600). 0: no limit.',
		},
		modelOptionParameters.seed.property,
		modelOptionParameters.stallTimeout.property,
		modelOptionParameters.stopSequences.property,
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
		modelOptionParameters.topK.property,
		modelOptionParameters.topP.property,
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
		modelOptionParameters.maxTokens.property,
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
		modelOptionParameters.reasoningEffort.property,
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
		modelOptionParameters.temperature.property,
		modelOptionParameters.timeout.property,
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
		{
			displayName: 'Tool Images',
			name: 'toolImages',
			type: 'options',
			options: [
				{
					name: 'Auto',
					value: 'auto',
					description:
						'Send the images tools return (PNG, JPEG, GIF, WebP) to models known to take images (OpenAI, Anthropic, Gemini); other models get the text line',
				},
				{
					name: 'Send',
					value: 'send',
					description:
						'Send them to this model whatever its name (a vision model on another server)',
				},
				{
					name: 'Text Only',
					value: 'textOnly',
					description: 'Never send them: the model reads the line naming each file',
				},
			],
			default: 'auto',
			description:
				'Whether images a tool returns (an HTTP Request fetching a PNG, a screenshot) go to the model as image parts after its tool result. At most 4 per result, 5 MB each.',
		},
	]),
};

/**
 * The listed options, then every row of the model-options table not placed among them: a new
 * model option is one table row (and its wire mapping), and shows on both nodes without an
 * edit here; placing it in the list is only about where n8n shows it.
 */
function withEveryModelOption(listed: INodeProperties[]): INodeProperties[] {
	const placed = new Set(listed);
	const unplaced = Object.values(modelOptionParameters)
		.map((parameter) => parameter.property)
		.filter((property) => !placed.has(property));
	return [...listed, ...unplaced];
}
