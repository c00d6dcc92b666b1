import {
	Workflow,
	type IConnections,
	type INode,
	type INodeTypes,
	type IWorkflowBase,
} from 'n8n-workflow';
import type { WorkflowExport } from './workflow-file';

/** n8n's instance default timezone when a workflow sets none (n8n's GENERIC_TIMEZONE default). */
const N8N_DEFAULT_TIMEZONE = 'America/New_York';

/**
 * The timezone a workflow runs in, by n8n's rule: its own setting, unless absent or
 * `DEFAULT`, then the instance's (`GENERIC_TIMEZONE`), then n8n's default. The one rule of
 * the standalone host, for node runs and for the expressions it resolves (`$now`, `$today`).
 */
export function workflowTimezone(
	timezone: string | undefined,
	env: NodeJS.ProcessEnv = process.env,
): string {
	return !timezone || timezone === 'DEFAULT'
		? (env.GENERIC_TIMEZONE ?? N8N_DEFAULT_TIMEZONE)
		: timezone;
}

/** What {@link oneNodeWorkflow} builds from. */
export interface OneNodeWorkflowOptions {
	/** The export the node comes from: id, name, settings, static data. */
	workflow?: Pick<WorkflowExport, 'id' | 'name' | 'settings' | 'staticData'>;
	/** Node types: n8n's `Workflow` fills in the node's parameter defaults from them. */
	nodeTypes: INodeTypes;
}

/**
 * The one-node n8n `Workflow` the standalone host runs and resolves expressions in: the
 * export's id, name, settings (execution order v1, {@link workflowTimezone}) and static data,
 * and its `IWorkflowBase` twin for n8n-core's execution hooks. `new Workflow` applies the
 * node type's defaults to `node`'s parameters (pass a copy when the caller's must stay as is).
 */
export function oneNodeWorkflow(
	node: INode,
	options: OneNodeWorkflowOptions,
): { workflow: Workflow; workflowData: IWorkflowBase } {
	return partialWorkflow([node], {}, options);
}

/**
 * An n8n `Workflow` of some nodes of an export and the connections between them, with the
 * export's id, name, settings and static data (as {@link oneNodeWorkflow}): e.g. a tool node
 * and its sub-nodes, for n8n's `supplyData`. Every node's type must be in `nodeTypes`; their
 * parameters get their defaults in place (pass copies).
 */
export function partialWorkflow(
	nodes: INode[],
	connections: IConnections,
	options: OneNodeWorkflowOptions,
): { workflow: Workflow; workflowData: IWorkflowBase } {
	const source = options.workflow ?? {};
	const settings = {
		...source.settings,
		executionOrder: 'v1' as const,
		timezone: workflowTimezone(source.settings?.timezone),
	};
	const id = source.id ?? 'toolbridge-standalone';
	const name = source.name ?? 'toolbridge';
	const workflow = new Workflow({
		id,
		name,
		nodes,
		connections,
		active: false,
		nodeTypes: options.nodeTypes,
		staticData: source.staticData,
		settings,
	});
	const workflowData: IWorkflowBase = {
		id,
		name,
		active: false,
		activeVersionId: null,
		isArchived: false,
		nodes,
		connections,
		settings,
		createdAt: new Date(),
		updatedAt: new Date(),
	};
	return { workflow, workflowData };
}
