import type { INodeProperties } from 'n8n-workflow';
import {
	modelOptionParameters,
	type ModelOptionParameter,
} from '../../../src/node-settings/model-option-parameters';
import { optionsParameter } from '../../AgentOrchestrator/descriptions/options-parameter';

const modelOptions = new Map<string, ModelOptionParameter>(Object.entries(modelOptionParameters));

/**
 * The sub-node's "Options": every model option of the table both nodes share
 * (`modelOptionParameters`: sampling, routing, caching, headers, time limits), in the
 * orchestrator's order, with the sub-node's own description where it has one.
 */
export const chatModelOptionsParameter: INodeProperties = {
	...optionsParameter,
	options: (optionsParameter.options as INodeProperties[]).flatMap((property) => {
		const parameter = modelOptions.get(property.name);
		if (!parameter) return [];
		return parameter.subNodeDescription === undefined
			? [property]
			: [{ ...property, description: parameter.subNodeDescription }];
	}),
};
