import type { ITaskData } from 'n8n-workflow';
import type { Usage } from '../../chat/types';
import type { ToolObservation } from '../agent-tool';
import { outputItems } from './observation-from-task-data';

/** What a nested Agent Orchestrator's engine-run node gives its parent. */
export interface NestedAgentAnswer {
	observation: ToolObservation;
	/** The child's usage, when its output item carries it (its "Return Intermediate Steps"). */
	usage?: Usage;
}

/**
 * Reads the answer of a nested Agent Orchestrator that n8n's engine ran as a node: its one
 * output item is `{ output, …details }`, and the parent's model reads `output` as plain text,
 * as it does when the child is called in-process (not `[{"output":"…"}]`). The child's usage,
 * when present, is returned so the parent can roll it up.
 * Returns `undefined` for anything else (a node error, several items, no text `output`): the
 * generic observation applies then.
 */
export function nestedAgentObservation(taskData: ITaskData | undefined): NestedAgentAnswer | undefined {
	if (!taskData || taskData.error) return undefined;
	const items = outputItems(taskData);
	if (items.length !== 1) return undefined;
	const json = items[0].json ?? {};
	if (typeof json.output !== 'string') return undefined;
	const answer: NestedAgentAnswer = { observation: { content: json.output, isError: false } };
	if (isUsage(json.usage)) answer.usage = json.usage;
	return answer;
}

function isUsage(value: unknown): value is Usage {
	if (typeof value !== 'object' || value === null) return false;
	const usage = value as Partial<Usage>;
	return typeof usage.promptTokens === 'number' && typeof usage.completionTokens === 'number' && typeof usage.totalTokens === 'number';
}
