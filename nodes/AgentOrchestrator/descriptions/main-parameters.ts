import type { INodeProperties } from 'n8n-workflow';

/** Which credential type the node uses; each value is a credential type name. */
export const authenticationParameter: INodeProperties = {
	displayName: 'Credential Type',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'OpenRouter', value: 'openRouterApi', description: "n8n's built-in OpenRouter credential" },
		{
			name: 'OpenAI-Compatible API',
			value: 'openAiCompatibleApi',
			description: 'Any Chat Completions server (Ollama, vLLM, LM Studio, Together…)',
		},
	],
	default: 'openRouterApi',
};

/** Agent mode. Only `full` exists so far; validator and nested come with their own issue. */
export const modeParameter: INodeProperties = {
	displayName: 'Mode',
	name: 'mode',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Full',
			value: 'full',
			description: 'Run the tool loop until the model answers or a stop condition is reached',
		},
	],
	default: 'full',
};

/** The model id as the server knows it (OpenRouter: `vendor/model`). */
export const modelParameter: INodeProperties = {
	displayName: 'Model',
	name: 'model',
	type: 'string',
	default: 'anthropic/claude-sonnet-4',
	required: true,
	placeholder: 'anthropic/claude-sonnet-4',
	hint: 'Any model id the server accepts, e.g. openai/gpt-4.1, google/gemini-2.5-pro, llama3.1 (Ollama)',
};

/** The user message for this item. */
export const promptParameter: INodeProperties = {
	displayName: 'Prompt',
	name: 'prompt',
	type: 'string',
	default: '={{ $json.chatInput }}',
	required: true,
	typeOptions: { rows: 3 },
	description: 'The user message sent to the model for each input item',
};
