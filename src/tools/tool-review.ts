import type {
	AgentTool,
	ToolObservation,
	ToolReview,
	ToolReviewDecision,
	ToolReviewer,
} from './agent-tool';

export type { ToolReview, ToolReviewDecision, ToolReviewRequest, ToolReviewer } from './agent-tool';

/** How a gate's request is made for a tool. */
export interface ToolReviewSpec {
	reviewNodeName: string;
	/** The approval text for a call of `toolName` with `args`. */
	message: (toolName: string, args: Record<string, unknown>) => string;
	approveLabel?: string;
	declineLabel?: string;
}

const NO_REVIEWER = 'no-reviewer';

/**
 * The tool behind a human-review gate: each call first asks `reviewer` (or, when the caller
 * already reviewed it — `options.reviewed` — runs at once); a declined call is not run and
 * the model reads why. Without a reviewer every call is refused with a message saying how to
 * give one. The tool keeps its other fields and carries the requirement as `review`, so
 * callers with their own review step (an MCP server asking its client) can see it.
 */
export function gateToolWithReview<T extends AgentTool>(
	tool: T,
	spec: ToolReviewSpec,
	reviewer?: ToolReviewer,
): T {
	const review: ToolReview = {
		reviewNodeName: spec.reviewNodeName,
		request: (args) => ({
			toolName: tool.name,
			reviewNodeName: spec.reviewNodeName,
			arguments: args,
			message: spec.message(tool.name, args),
			approveLabel: spec.approveLabel || 'Approve',
			declineLabel: spec.declineLabel || 'Decline',
		}),
		async ask(args, signal) {
			if (!reviewer) return { approved: false, reason: NO_REVIEWER };
			const decision = await reviewer(review.request(args), { signal });
			return decision?.approved === true
				? { approved: true }
				: { approved: false, reason: decision?.reason };
		},
	};
	return {
		...tool,
		review,
		invoke: async (args, options) => {
			if (options.reviewed) return tool.invoke(args, options);
			const decision = await review.ask(args, options.signal);
			if (!decision.approved) return toolReviewRefusal(tool.name, review, decision);
			return tool.invoke(args, { ...options, reviewed: true });
		},
	};
}

/**
 * The observation of a gated call that did not run: declined by the reviewer (with their
 * reason), or refused because nobody could review it.
 */
export function toolReviewRefusal(
	toolName: string,
	review: Pick<ToolReview, 'reviewNodeName'>,
	decision: ToolReviewDecision,
): ToolObservation {
	if (decision.reason === NO_REVIEWER) {
		return {
			content:
				`Not run: '${toolName}' needs a person's approval (the workflow's "${review.reviewNodeName}" node gates it) and nobody can review it here. ` +
				'Answer without it, or ask the user to run it where it can be approved.',
			isError: true,
		};
	}
	const said = decision.reason ? ` Their feedback: "${decision.reason}".` : '';
	return {
		content:
			`The person reviewing this call of '${toolName}' (node "${review.reviewNodeName}") declined it, so the tool was not run.${said} ` +
			'Do not repeat the same call unless they ask for it; change the arguments as they say, or answer without it.',
		isError: true,
	};
}

/** A refusal decision saying nobody could review the call (for callers with their own review step). */
export const noReviewerDecision: ToolReviewDecision = { approved: false, reason: NO_REVIEWER };
