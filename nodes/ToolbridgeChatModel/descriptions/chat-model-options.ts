import type { INodeProperties } from 'n8n-workflow';
import { optionsParameter } from '../../AgentOrchestrator/descriptions/options-parameter';

/** The orchestrator options that concern the model call itself (names match `ChatModelNodeOptions`). */
const modelOptionNames = [
	'allowFallbacks',
	'dataCollection',
	'extraHeaders',
	'fallbackModels',
	'firstTokenTimeout',
	'frequencyPenalty',
	'maxPriceCompletion',
	'maxPricePrompt',
	'maxTokens',
	'presencePenalty',
	'promptCaching',
	'providerIgnore',
	'providerOnly',
	'providerOptions',
	'providerOrder',
	'providerSort',
	'reasoningEffort',
	'requireParameters',
	'seed',
	'stallTimeout',
	'stopSequences',
	'temperature',
	'timeout',
	'topK',
	'topP',
];

/** Descriptions that speak of the agent's output in the orchestrator. */
const descriptions: Record<string, string> = {
	fallbackModels:
		'Comma-separated models to use when the main model fails. OpenRouter picks among them (models); other servers are tried in order by this node.',
};

/** The sub-node's "Options": the orchestrator's model options (sampling, routing, caching, headers, time limits), shared, not copied. */
export const chatModelOptionsParameter: INodeProperties = {
	...optionsParameter,
	options: (optionsParameter.options as INodeProperties[])
		.filter((option) => modelOptionNames.includes(option.name))
		.map((option) =>
			descriptions[option.name] ? { ...option, description: descriptions[option.name] } : option,
		),
};
