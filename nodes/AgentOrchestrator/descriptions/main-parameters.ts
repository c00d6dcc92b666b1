import type { INodeProperties } from 'n8n-workflow';
import { defaultModelId } from '../../../src/node-settings/read-model-parameter';

/** Says what a connected Chat Model sub-node changes (n8n cannot hide parameters by connection). */
export const connectedModelNotice: INodeProperties = {
	displayName:
		'A Chat Model connected to this node is used instead of the credential and Model below (its own settings apply; sampling, fallback and routing options here are then not sent)',
	name: 'connectedModelNotice',
	type: 'notice',
	default: '',
};

/** Which credential type the node uses; each value is a credential type name. */
export const authenticationParameter: INodeProperties = {
	displayName: 'Credential Type',
	name: 'authentication',
	type: 'options',
	options: [
		{
			name: 'OpenRouter',
			value: 'openRouterApi',
			description: "n8n's built-in OpenRouter credential",
		},
		{
			name: 'OpenAI-Compatible API',
			value: 'openAiCompatibleApi',
			description: 'Any Chat Completions server (Ollama, vLLM, LM Studio, Together…)',
		},
	],
	default: 'openRouterApi',
};

/** Agent mode: the full loop, one validated tool call, or an agent that is a tool of another agent. */
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
		{
			name: 'Nested (Tool of Another Agent)',
			value: 'nested',
			description:
				'Connect this agent to a parent agent as a tool; it runs the full loop with its own tools when called and returns its answer',
		},
		{
			name: 'Validator (One Validated Tool Call)',
			value: 'validator',
			description:
				'The model fills ONE tool call; the arguments are checked against the schema and sent back with the errors until they pass, then the tool runs once',
		},
	],
	default: 'full',
};

/** The model id as the server knows it (OpenRouter: `vendor/model`): a plain string, as version 1 stores it. */
export const modelParameter: INodeProperties = {
	displayName: 'Model',
	name: 'model',
	type: 'string',
	default: defaultModelId,
	required: true,
	placeholder: 'anthropic/claude-sonnet-4',
	hint: 'Any model id the server accepts, e.g. openai/gpt-4.1, google/gemini-2.5-pro, llama3.1 (Ollama)',
	displayOptions: { show: { '@version': [1] } },
};

/**
 * The model as a resource locator: picked from the credential's `GET /models` list (tool-calling
 * models first; the `searchModels` list-search method) or typed as an id. Stored as
 * `{ __rl: true, mode, value }`; readers take both shapes (`readModelParameter`).
 */
export const modelLocatorParameter: INodeProperties = {
	displayName: 'Model',
	name: 'model',
	type: 'resourceLocator',
	default: { mode: 'list', value: defaultModelId },
	required: true,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a model…',
			typeOptions: { searchListMethod: 'searchModels', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'anthropic/claude-sonnet-4',
			hint: 'Any model id the server accepts, e.g. openai/gpt-4.1, google/gemini-2.5-pro, llama3.1 (Ollama)',
		},
	],
};

/** The node subtitle: the model id, whichever shape the Model parameter has. */
export const modelSubtitle =
	'={{ typeof $parameter.model === "object" ? $parameter.model.value : $parameter.model }}';

/** The user message for this item. */
export const promptParameter: INodeProperties = {
	displayName: 'Prompt',
	name: 'prompt',
	type: 'string',
	default: '={{ $json.chatInput }}',
	required: true,
	typeOptions: { rows: 3 },
	description: 'The user message sent to the model for each input item',
	// Nested mode has its own Prompt (default: a $fromAI task argument).
	displayOptions: { hide: { mode: ['nested'] } },
};
