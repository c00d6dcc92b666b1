import type { ITaskData } from 'n8n-workflow';
import { outputItems } from './observation-from-task-data';

/** What the person at a human-review gate decided. */
export interface ReviewDecision {
	approved: boolean;
	/** Their words, when the gate asked for any (free text, a chat reply). */
	reason?: string;
}

/**
 * Reads a review gate's (`…HitlTool` node) result. n8n's send-and-wait nodes return
 * `{ data: { approved: true|false, respondedAt } }` for approve/decline buttons,
 * `{ data: { text } }` for a free-text reply; the chat gate returns `chatInput`. Only an
 * explicit `approved: true` approves; anything else (a reply, a missing field) is not an
 * approval, as in n8n's own agent.
 */
export function reviewDecision(taskData: ITaskData): ReviewDecision {
	const json = outputItems(taskData)[0]?.json ?? {};
	const nested =
		typeof json.data === 'object' && json.data !== null && !Array.isArray(json.data)
			? (json.data as Record<string, unknown>)
			: {};
	const approved = typeof json.approved === 'boolean' ? json.approved : nested.approved === true;
	const reason = [json.chatInput, nested.chatInput, nested.text, json.text, nested.reason].find(
		(value): value is string => typeof value === 'string' && value.trim() !== '',
	);
	const decision: ReviewDecision = { approved };
	if (reason !== undefined) decision.reason = reason.trim();
	return decision;
}

/** The observation for a call the person declined. */
export function declinedObservation(
	toolName: string,
	reviewNodeName: string,
	reason?: string,
): string {
	const said = reason ? ` Their feedback: "${reason}".` : '';
	return (
		`The person reviewing this call of '${toolName}' (node "${reviewNodeName}") declined it, so the tool was not run.${said} ` +
		`Do not repeat the same call unless they ask for it; change the arguments as they say, or answer without it.`
	);
}
