import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { Usage } from '../../../chat/types';
import { addUsage, emptyUsage } from '../../../agent/add-usage';
import {
	nestedAgentUsageKey,
	type NestedAgentTaskMetadata,
} from '../engine/nested-agent-observation';
import type { CallModel } from '../../../agent/call-model-step';
import { runAgentNodeItem } from './run-agent-node-item';
import { runValidatorItems } from './run-validator-node-item';
import { readItemBatching, runItemBatches } from '../item-run/run-item-batches';
import { readAgentMode, type AgentMode } from '../../../node-settings/read-mode-settings';

/**
 * The node's mode (one value per execution: the parameter takes no expression).
 * @throws {AgentConfigurationError} for an unknown mode.
 */
export function readNodeAgentMode(context: IExecuteFunctions): AgentMode {
	return readAgentMode(
		(name, fallback) => context.getNodeParameter(name, 0, fallback),
		context.getNode().name,
	);
}

/**
 * One execution of the node in validator or nested mode, every input item:
 * - validator: one validated tool call per item (see `runValidatorNodeItem`);
 * - nested, run by n8n as a tool node (n8n's AI Agent sent an engine request for it, so
 *   the item's json holds the tool arguments and `toolCallId`, which the prompt's
 *   `$fromAI` reads): the full loop, in-process, answer in `output`. In-process on
 *   purpose: a tool node's run must end with items for its parent agent. The run's usage
 *   (all items, nested agents included) goes to the task metadata under
 *   `nestedAgentUsageKey`, where a parent Agent Orchestrator reads it, not into the items.
 *
 * @throws what `failItem` throws for a failed item.
 */
export async function runModeItems(
	context: IExecuteFunctions,
	mode: Exclude<AgentMode, 'full'>,
	failItem: (error: unknown, itemIndex: number) => INodeExecutionData,
	options: { callModel?: CallModel } = {},
): Promise<INodeExecutionData[]> {
	if (mode === 'validator') return await runValidatorItems(context, failItem, options);
	let usage: Usage | undefined;
	const output = await runItemBatches(
		context.getInputData().length,
		async (itemIndex) => {
			try {
				return await runAgentNodeItem(context, itemIndex, {
					...options,
					onResult: (result) => (usage = addUsage(usage ?? emptyUsage(), result.usage)),
				});
			} catch (error) {
				return failItem(error, itemIndex);
			}
		},
		{ ...readItemBatching(context), signal: context.getExecutionCancelSignal?.() },
	);
	// For the parent orchestrator, whatever this node's output options (see nestedAgentUsageKey).
	if (usage && typeof context.setMetadata === 'function')
		context.setMetadata({ [nestedAgentUsageKey]: usage } as NestedAgentTaskMetadata);
	return output;
}
