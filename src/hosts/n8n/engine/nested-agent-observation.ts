import type { ITaskData, ITaskMetadata } from 'n8n-workflow';
import type { Usage } from '../../../chat/types';
import type { ToolObservation } from '../../../tools/agent-tool';
import { outputItems } from './observation-from-task-data';

/**
 * The key of a node run's task metadata (`ITaskData.metadata`) where a nested Agent
 * Orchestrator that n8n's engine ran as a tool node leaves its usage (tokens, cost; its own
 * nested agents' included) for the parent orchestrator. A dedicated field outside the
 * output items, on purpose: n8n keeps task metadata with the run (also across a wait) but
 * neither shows it in the output panel nor hands it to a model, so the child's output
 * item stays what its options ask for (`{ output }` by default) — including for n8n's own
 * AI Agent as the parent, whose model reads the items.
 */
export const nestedAgentUsageKey = 'toolbridgeUsage';

/** The task metadata a nested Agent Orchestrator adds to its node run: {@link nestedAgentUsageKey}. */
export type NestedAgentTaskMetadata = ITaskMetadata & { [nestedAgentUsageKey]?: Usage };

/** What a nested Agent Orchestrator's engine-run node gives its parent. */
export interface NestedAgentAnswer {
	observation: ToolObservation;
	/** The child's usage, from its run's task metadata ({@link nestedAgentUsageKey}). */
	usage?: Usage;
}

/**
 * Reads the answer of a nested Agent Orchestrator that n8n's engine ran as a node: its one
 * output item is `{ output, …details }`, and the parent's model reads `output` as plain text
 * (an object answer as its JSON text), as it does when the child is called in-process (not
 * `[{"output":"…"}]`). The child's usage comes from its task metadata (written whatever
 * the child's output options), so the parent can roll it up.
 * Returns `undefined` for anything else (a node error, several items, no `output`): the
 * generic observation applies then.
 */
export function nestedAgentObservation(
	taskData: ITaskData | undefined,
): NestedAgentAnswer | undefined {
	if (!taskData || taskData.error) return undefined;
	const items = outputItems(taskData);
	if (items.length !== 1) return undefined;
	const json = items[0].json ?? {};
	if (json.output === undefined || json.output === null) return undefined;
	// An object answer (output format json) as JSON text, as the in-process nested tool returns it.
	const content = typeof json.output === 'string' ? json.output : JSON.stringify(json.output);
	const answer: NestedAgentAnswer = { observation: { content, isError: false } };
	const usage: unknown = (taskData.metadata as NestedAgentTaskMetadata | undefined)?.[
		nestedAgentUsageKey
	];
	if (isUsage(usage)) answer.usage = usage;
	return answer;
}

function isUsage(value: unknown): value is Usage {
	if (typeof value !== 'object' || value === null) return false;
	const usage = value as Partial<Usage>;
	return (
		typeof usage.promptTokens === 'number' &&
		typeof usage.completionTokens === 'number' &&
		typeof usage.totalTokens === 'number'
	);
}
