import type { IExecuteWorkflowInfo, INode, IWorkflowSettings } from 'n8n-workflow';
import { SubWorkflowError } from '../../../errors/sub-workflow-error';
import { parseWorkflow, type WorkflowExport } from '../workflow-file';
import type { WorkflowLibrary } from './workflow-library';

/** n8n's Execute Workflow Trigger: where a sub-workflow starts. */
export const EXECUTE_WORKFLOW_TRIGGER = 'n8n-nodes-base.executeWorkflowTrigger';

/** How a sub-workflow reference was resolved. */
export type SubWorkflowSource =
	/** n8n's "Parameter" source (or a local file, or a URL): the JSON came with the call. */
	| 'inline'
	/** The id is the calling workflow's own (`{{ $workflow.id }}`). */
	| 'self'
	/** A workflow of the library, by id, then by name. */
	| 'library'
	/**
	 * Nothing in the library has the id, and the calling file has its own Execute Workflow
	 * Trigger: templates exported from n8n.io keep the author's id for "this workflow".
	 */
	| 'self-by-trigger';

/** What {@link resolveSubWorkflow} needs to know about the call. */
export interface SubWorkflowCall {
	/** The workflow whose node makes the call. */
	caller: WorkflowExport;
	/** The id the caller runs under (`$workflow.id`). */
	callerId: string;
	callerSettings?: IWorkflowSettings;
	/** The node that calls (its `workflowId` locator may hold the name n8n showed). */
	node?: INode;
	library: WorkflowLibrary;
}

/**
 * Finds the workflow a Call n8n Workflow Tool or Execute Workflow node names: the JSON it
 * brings (its id and settings default to the caller's, as in n8n); else the caller itself
 * when the id is the caller's; else the library by id, then by the name the node's "From list"
 * locator remembered, then by the id read as a name; else — when the calling file has its own
 * Execute Workflow Trigger — the calling file (n8n.io templates keep the author's instance id).
 *
 * @throws SubWorkflowError (SUB_WORKFLOW_NOT_FOUND) naming the id, the remembered name and where it looked.
 * @throws WorkflowFileError when inline JSON is not a workflow.
 */
export function resolveSubWorkflow(
	info: IExecuteWorkflowInfo,
	call: SubWorkflowCall,
): { workflow: WorkflowExport; source: SubWorkflowSource } {
	if (info.code !== undefined) {
		const code = parseWorkflow(info.code, 'The sub-workflow JSON');
		return {
			workflow: {
				...code,
				id: code.id ?? call.callerId,
				settings: code.settings ?? call.callerSettings,
			},
			source: 'inline',
		};
	}
	const id = info.id === undefined ? '' : String(info.id);
	if (id === call.callerId) return { workflow: call.caller, source: 'self' };
	const rememberedName = cachedResultName(call.node);
	const found =
		call.library.byId(id) ??
		(rememberedName === undefined ? undefined : call.library.byName(rememberedName)) ??
		call.library.byName(id);
	if (found) return { workflow: found, source: 'library' };
	if (call.caller.nodes.some((node) => node.type === EXECUTE_WORKFLOW_TRIGGER)) {
		return { workflow: call.caller, source: 'self-by-trigger' };
	}
	const shown = rememberedName ? ` ("${rememberedName}")` : '';
	const where = call.library.origin
		? `none of the ${call.library.workflows.length} workflows in ${call.library.origin} has that id or name`
		: 'no workflows were given: pass the exported sub-workflow with --workflows DIR (library: the workflows option)';
	const by = call.node ? ` called by node "${call.node.name}"` : '';
	throw new SubWorkflowError(
		'not-found',
		`Sub-workflow "${id}"${shown}${by} was not found: ${where}, and the calling workflow has no Execute Workflow Trigger of its own. Export the sub-workflow from n8n and put its file in the workflows folder.`,
		{ workflowName: rememberedName ?? id },
	);
}

/** The name n8n's "From list" workflow locator remembered, if the node has one. */
function cachedResultName(node: INode | undefined): string | undefined {
	const locator = node?.parameters.workflowId;
	if (typeof locator !== 'object' || locator === null || Array.isArray(locator)) return undefined;
	const name = (locator as { cachedResultName?: unknown }).cachedResultName;
	return typeof name === 'string' && name !== '' ? name : undefined;
}
