/**
 * n8n's Call n8n Workflow Tool (`@n8n/n8n-nodes-langchain.toolWorkflow`) as templates carry it,
 * one node per typeVersion in use (1, 1.1, 1.2, 1.3 from `v1/`; 2, 2.1, 2.2 from `v2/`), with
 * the parameters each version has: `name` (≤ 2.1), `workflowId` as a string (≤ 1.1) or a
 * resource locator (≥ 1.2), the older inputs (a plain `query`, a JSON-example or manual
 * schema, extra `fields`) and `workflowInputs` with `$fromAI` (≥ 2).
 */
import type { INode, INodeParameters } from 'n8n-workflow';
import { workflowLocator } from './sub-workflow-nodes';

/** Every typeVersion of the Call n8n Workflow Tool that n8n 2.41.1 ships. */
export const TOOL_WORKFLOW_VERSIONS = [1, 1.1, 1.2, 1.3, 2, 2.1, 2.2] as const;

/** A Call n8n Workflow Tool node of `typeVersion`; `workflowId` is written as that version writes it. */
export function toolWorkflowNode(
	name: string,
	typeVersion: number,
	parameters: INodeParameters & { workflowId?: string; cachedResultName?: string },
): INode {
	const { workflowId, cachedResultName, ...rest } = parameters;
	const id =
		workflowId === undefined
			? {}
			: {
					workflowId:
						typeVersion <= 1.1 ? workflowId : workflowLocator(workflowId, cachedResultName),
				};
	return {
		id: name,
		name,
		type: '@n8n/n8n-nodes-langchain.toolWorkflow',
		typeVersion,
		position: [0, 300],
		parameters: {
			...(typeVersion < 2.2 && { name: name.toLowerCase().replace(/\W+/g, '_') }),
			description: `Calls the ${name} workflow`,
			...id,
			...rest,
		},
	};
}

/** `workflowInputs` (≥ 2) mapping each key to its expression, as n8n's resource mapper writes it. */
export function workflowInputs(inputs: Record<string, string>, type = 'number'): INodeParameters {
	return {
		mappingMode: 'defineBelow',
		value: inputs,
		matchingColumns: [],
		schema: Object.keys(inputs).map((key) => ({
			id: key,
			displayName: key,
			required: false,
			defaultMatch: false,
			display: true,
			canBeUsedToMatch: true,
			type,
			removed: false,
		})),
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	};
}
