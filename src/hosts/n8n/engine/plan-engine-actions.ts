import type { IDataObject } from 'n8n-workflow';
import type { ToolCallResult } from '../../../agent/apply-tool-results';
import type { ToolCallRequest } from '../../../agent/next-action';
import type { EngineAction, EngineActionMetadata, EngineItem } from './engine-item';

/** The actions of one item's pending calls, and the calls answered without the engine. */
export interface PlannedActions {
	actions: EngineAction[];
	/** Calls that cannot go to the engine (no node behind the tool): answered now. */
	results: ToolCallResult[];
	/** Per tool call id: the action id used. */
	actionIds: Record<string, string>;
}

/**
 * Turns an item's pending tool calls into engine actions: the tool's node
 * (`metadata.sourceNodeName`) with the model's arguments as input; for a gated tool first
 * the review node (input as n8n's agent builds it: the review parameters flattened, the
 * tool's parameters under `toolParameters`), then, once approved, the gated node. Action
 * ids are unique within the request (`takenIds` is shared by all items of one request)
 * and map back to the item and tool call.
 */
export function planEngineActions(
	item: EngineItem,
	calls: ToolCallRequest[],
	takenIds: Set<string>,
): PlannedActions {
	const planned: PlannedActions = { actions: [], results: [], actionIds: {} };
	for (const call of calls) {
		const route =
			(Object.hasOwn(item.routes, call.name) ? item.routes[call.name] : undefined) ?? {};
		const approved = item.approved.includes(call.toolCallId);
		const nodeName = approved ? route.gatedToolNodeName : route.nodeName;
		if (nodeName === undefined) {
			planned.results.push({
				toolCallId: call.toolCallId,
				observation: {
					content: `Error: tool '${call.name}' has no n8n node behind it (no sourceNodeName), so n8n's engine cannot run it. Use the other tools or answer without it.`,
					isError: true,
				},
				durationMs: 0,
			});
			continue;
		}
		const id = uniqueId(call.toolCallId, item.itemIndex, takenIds);
		planned.actionIds[call.toolCallId] = id;
		const metadata: EngineActionMetadata = {
			itemIndex: item.itemIndex,
			toolCallId: call.toolCallId,
			toolName: call.name,
		};
		let input: IDataObject;
		if (route.gatedToolNodeName !== undefined && !approved) {
			const { hitlParameters, ...rest } = call.arguments as {
				hitlParameters?: unknown;
				toolParameters?: unknown;
			};
			input = {
				...rest,
				...(isObject(hitlParameters) ? hitlParameters : {}),
				toolParameters: rest.toolParameters,
			} as IDataObject;
			metadata.hitl = {
				gatedToolNodeName: route.gatedToolNodeName,
				toolName: call.name,
				originalInput: rest.toolParameters,
			};
		} else if (approved) {
			const parameters = (call.arguments as { toolParameters?: unknown }).toolParameters;
			input = isObject(parameters)
				? { tool: call.name, ...parameters }
				: { tool: call.name, input: parameters as IDataObject[keyof IDataObject] };
			if (route.nodeName !== undefined) metadata.parentNodeName = route.nodeName;
		} else {
			input = route.fromToolkit
				? { ...call.arguments, tool: call.name }
				: ({ ...call.arguments } as IDataObject);
		}
		planned.actions.push({
			actionType: 'ExecutionNodeAction',
			nodeName,
			input,
			type: 'ai_tool',
			id,
			metadata,
		});
	}
	return planned;
}

function uniqueId(toolCallId: string, itemIndex: number, takenIds: Set<string>): string {
	let id =
		toolCallId !== '' && !takenIds.has(toolCallId) ? toolCallId : `${toolCallId}#item${itemIndex}`;
	for (let suffix = 2; takenIds.has(id); suffix++) id = `${toolCallId}#item${itemIndex}-${suffix}`;
	takenIds.add(id);
	return id;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
