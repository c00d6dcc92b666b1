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
			displayName: 'Debug Log',
			name: 'debugLog',
			type: 'boolean',
			default: false,
			description:
				'Whether to write a [DEBUG] line for each step (iteration, model response, tool call, result) to the stream and to the output as debugLog. API keys are redacted.',
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
			description: 'How much the model should think before answering (OpenRouter `reasoning.effort`)',
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
			description: 'Whether to add steps (tool, arguments, result, duration), usage, iterations and reasoning to the output',
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
			typeOptions: { minValue: 1 },
			default: 300,
			description: 'How long one model call may take before it is aborted',
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
					description: 'This node calls the tools itself, concurrently. Human review (…HitlTool) gates do not work this way.',
				},
			],
			default: 'engine',
			description: 'How tool calls run. In-process is used anyway where the engine cannot take requests (e.g. when this node itself runs as a tool).',
		},
	],
};
