/**
 * Workflows that call sub-workflows: n8n-nodes-base Execute Workflow nodes (database, from-list
 * and parameter sources, `$fromAI` inputs) on an Agent Orchestrator's ai_tool input, and the
 * fixture library they call (fixtures/workflows/sub-workflows).
 */
import { resolve } from 'node:path';
import type { INode, INodeParameters } from 'n8n-workflow';
import type { WorkflowExport } from '../../src/hosts/standalone/workflow-file';
import { agentWorkflow } from './real-tool-nodes';

/** The fixture library: Add numbers (sub-add), Always fails, Calls itself, Outer, Slow, Fetch with key. */
export const SUB_WORKFLOWS_DIR = resolve(__dirname, '../../fixtures/workflows/sub-workflows');

/** A `workflowId` resource locator as n8n writes it (`mode: 'list'` keeps the name it showed). */
export function workflowLocator(value: string, cachedResultName?: string): INodeParameters {
	return cachedResultName === undefined
		? { __rl: true, value, mode: 'id' }
		: { __rl: true, value, mode: 'list', cachedResultName };
}

/** An Execute Workflow node (1.2) whose `workflowInputs` map each key to its expression. */
export function executeWorkflowNode(
	name: string,
	parameters: INodeParameters,
	inputs: Record<string, string> = {},
): INode {
	const keys = Object.keys(inputs);
	return {
		id: name,
		name,
		type: 'n8n-nodes-base.executeWorkflow',
		typeVersion: 1.2,
		position: [0, 200],
		parameters: {
			options: {},
			...parameters,
			...(keys.length > 0 && {
				workflowInputs: {
					mappingMode: 'defineBelow',
					value: inputs,
					matchingColumns: [],
					schema: keys.map((key) => ({
						id: key,
						displayName: key,
						required: false,
						defaultMatch: false,
						display: true,
						canBeUsedToMatch: true,
						type: 'any',
					})),
					attemptToConvertTypes: false,
					convertFieldsToString: false,
				},
			}),
		},
	};
}

/** "Add": calls Add numbers (sub-add) with the model's `a` and `b`. */
export function addNumbersTool(locator = workflowLocator('sub-add')): INode {
	return executeWorkflowNode(
		'Add',
		{ workflowId: locator },
		{
			a: "={{ $fromAI('a', 'first number', 'number') }}",
			b: "={{ $fromAI('b', 'second number', 'number') }}",
		},
	);
}

/** An Agent Orchestrator with `tools`, plus `extra` nodes and connections (e.g. its own sub-workflow). */
export function callerWorkflow(
	tools: INode[],
	extra: { nodes?: INode[]; connections?: WorkflowExport['connections']; id?: string } = {},
): WorkflowExport {
	const workflow = agentWorkflow('Agent', { prompt: '=x', options: {} }, tools);
	return {
		...workflow,
		id: extra.id,
		name: 'Caller',
		nodes: [...workflow.nodes, ...(extra.nodes ?? [])],
		connections: { ...workflow.connections, ...extra.connections },
	};
}

/** An Execute Workflow Trigger (1.1) declaring `inputs`, then a Set node named `name` computing `fields`. */
export function ownSubWorkflow(
	name: string,
	inputs: string[],
	fields: Record<string, string>,
): Pick<WorkflowExport, 'nodes' | 'connections'> {
	const trigger: INode = {
		id: 'own-trigger',
		name: 'When called',
		type: 'n8n-nodes-base.executeWorkflowTrigger',
		typeVersion: 1.1,
		position: [0, 400],
		parameters: { workflowInputs: { values: inputs.map((input) => ({ name: input })) } },
	};
	const set: INode = {
		id: 'own-set',
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [200, 400],
		parameters: {
			assignments: {
				assignments: Object.entries(fields).map(([field, value], index) => ({
					id: String(index),
					name: field,
					value,
					type: 'string',
				})),
			},
			options: {},
		},
	};
	return {
		nodes: [trigger, set],
		connections: { 'When called': { main: [[{ node: name, type: 'main', index: 0 }]] } },
	};
}
