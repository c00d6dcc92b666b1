import {
	inputRequired,
	inputResponse,
	type Server,
	type ServerContext,
} from '@modelcontextprotocol/server';
import { noReviewerDecision, toolReviewRefusal } from 'n8n-nodes-toolbridge';
import type { McpTool } from './mcp-tool';
import { toolCallResult, type ToolCallResult } from './tool-call-result';

const APPROVAL_KEY = 'approval';
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/** The outcome of the review step of a gated call: run it, or answer with `result`. */
export type McpReviewStep = { approved: true } | { approved: false; result: ToolCallResult };

/**
 * Asks the client's user to approve a call of a tool behind a review gate, the way its
 * protocol can: on 2026-07-28 the call answers `input_required` with an elicitation form
 * (the client re-sends the call with the answer, to any replica); a 2025 client that declared
 * elicitation over stdio gets a real `elicitation/create` (the SDK turns the same answer into
 * one). A client that can do neither — no elicitation capability, or a 2025 client over
 * stateless HTTP, where the server cannot send it a request — gets an `isError` refusal
 * saying what would work. Only an accepted form with `approve: true` runs the tool.
 */
export function reviewStep(
	tool: McpTool & { review: NonNullable<McpTool['review']> },
	args: Record<string, unknown>,
	context: ServerContext,
	server: Server,
	era: 'legacy' | 'modern',
): McpReviewStep {
	const view = inputResponse(context.mcpReq.inputResponses, APPROVAL_KEY);
	if (view.kind === 'missing') {
		if (!clientCanElicit(context, server, era)) {
			const refusal = toolReviewRefusal(tool.name, tool.review, noReviewerDecision);
			refusal.content +=
				' (This MCP client cannot ask its user: connect with a client that supports elicitation, over stdio or with protocol 2026-07-28.)';
			return { approved: false, result: toolCallResult(refusal) };
		}
		const request = tool.review.request(args);
		return {
			approved: false,
			result: inputRequired({
				inputRequests: {
					[APPROVAL_KEY]: inputRequired.elicit({
						message: request.message,
						requestedSchema: {
							type: 'object',
							properties: {
								approve: {
									type: 'boolean',
									title: request.approveLabel,
									description: `Run ${request.toolName} with these arguments (node "${request.reviewNodeName}" asks for a person's approval)`,
								},
								reason: {
									type: 'string',
									title: 'Reason',
									description: `Optional: why not (${request.declineLabel}), for the model`,
								},
							},
							required: ['approve'],
						},
					}),
				},
			}) as unknown as ToolCallResult,
		};
	}
	if (view.kind === 'elicit' && view.action === 'accept' && view.content?.approve === true)
		return { approved: true };
	const reason =
		view.kind === 'elicit' && typeof view.content?.reason === 'string' && view.content.reason.trim()
			? view.content.reason.trim()
			: view.kind === 'elicit' && view.action !== 'accept'
				? `the reviewer chose ${view.action}`
				: undefined;
	return {
		approved: false,
		result: toolCallResult(toolReviewRefusal(tool.name, tool.review, { approved: false, reason })),
	};
}

function clientCanElicit(
	context: ServerContext,
	server: Server,
	era: 'legacy' | 'modern',
): boolean {
	if (era === 'modern') {
		const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined;
		const capabilities = envelope?.[CLIENT_CAPABILITIES_KEY] as
			{ elicitation?: unknown } | undefined;
		return capabilities?.elicitation !== undefined;
	}
	// 2025: known only on a connection that initialized (stdio); stateless HTTP has none.
	return server.getClientCapabilities()?.elicitation !== undefined;
}
