import type { EngineResponse, IDataObject } from 'n8n-workflow';
import { addUsage } from '../../../agent/add-usage';
import { nextAction } from '../../../agent/next-action';
import { OutputBoundary } from '../../../agent/output-boundary';
import type { EngineItem } from './engine-item';
import { nestedAgentObservation } from './nested-agent-observation';
import { observationFromTaskData, outputItems } from './observation-from-task-data';
import { withNodeOutputAttachments } from '../../../tools/format-tool-output';
import type { StoredBinaryReader } from '../../../tools/node-output-attachments';
import { declinedObservation, reviewDecision } from './review-decision';

/**
 * Takes an EngineResponse's results into one item: each pending call's action is matched
 * by its action id (responses come in any order, and may hold other items' actions).
 * A tool node's result becomes the call's observation; a review gate's approval queues the
 * gated tool's run, its decline becomes an observation. A nested Agent Orchestrator's answer
 * is its plain `output` text, and its usage (from its run's task metadata, see
 * `nestedAgentUsageKey`) is added to this item's usage. `inputJson` is the item's input
 * json (n8n-core merges it into every action's node input). Every observation goes through
 * the run's `boundary` (secrets redacted, text capped) before it is kept in the item, which
 * n8n persists. Images and sounds among a tool node's binary output become the observation's
 * attachments (`readStored` reads the files n8n keeps outside the item; the boundary bounds
 * them). Returns the debug lines, one per action answered.
 */
export async function collectActionResponses(
	item: EngineItem,
	response: EngineResponse,
	inputJson: IDataObject = {},
	boundary = new OutputBoundary(),
	readStored?: StoredBinaryReader,
): Promise<string[]> {
	const action = nextAction(item.state);
	if (action.type !== 'run-tools') return [];
	const byId = new Map(response.actionResponses.map((entry) => [entry.action.id, entry]));
	const lines: string[] = [];
	for (const call of action.calls) {
		if (item.results.some((result) => result.toolCallId === call.toolCallId)) continue;
		// Own keys only: a call id or tool name such as `toString` is not Object.prototype's member.
		const actionId = Object.hasOwn(item.actionIds, call.toolCallId)
			? item.actionIds[call.toolCallId]
			: undefined;
		if (actionId === undefined) continue;
		const entry = byId.get(actionId);
		const route =
			(Object.hasOwn(item.routes, call.name) ? item.routes[call.name] : undefined) ?? {};
		const approved = item.approved.includes(call.toolCallId);
		const nodeName =
			entry?.action.nodeName ?? (approved ? route.gatedToolNodeName : route.nodeName) ?? call.name;
		const durationMs = entry?.data.executionTime ?? 0;
		if (route.gatedToolNodeName !== undefined && !approved && entry && !entry.data.error) {
			const decision = reviewDecision(entry.data);
			lines.push(
				`[DEBUG] Engine action ${actionId}: review node "${nodeName}" ${decision.approved ? 'approved' : 'declined'} ${call.name}${decision.reason ? ` (${decision.reason})` : ''}`,
			);
			if (decision.approved) {
				item.approved.push(call.toolCallId);
				continue;
			}
			item.results.push(
				boundary.result({
					toolCallId: call.toolCallId,
					observation: {
						content: declinedObservation(call.name, nodeName, decision.reason),
						isError: true,
					},
					durationMs,
				}),
			);
			continue;
		}
		const nested = route.nestedAgent ? nestedAgentObservation(entry?.data) : undefined;
		if (nested?.usage)
			item.state = { ...item.state, usage: addUsage(item.state.usage, nested.usage) };
		let observation =
			nested?.observation ??
			observationFromTaskData(entry?.data, call.name, nodeName, {
				fields: { ...inputJson, toolCallId: actionId },
				arguments: (entry?.action.input ?? call.arguments) as IDataObject,
			});
		if (!nested && entry?.data && !observation.isError)
			observation = await withNodeOutputAttachments(observation, outputItems(entry.data), {
				...boundary.attachmentLimits,
				readStored,
			});
		lines.push(
			`[DEBUG] Engine action ${actionId}: node "${nodeName}" ${entry ? (observation.isError ? 'failed' : 'succeeded') : 'did not answer'} (${Math.round(durationMs)} ms)`,
		);
		item.results.push(boundary.result({ toolCallId: call.toolCallId, observation, durationMs }));
	}
	return lines;
}
