import type { INode } from 'n8n-workflow';
import type { ToolReviewSpec } from '../../tools/tool-review';
import { canonicalJson } from '../../agent/canonical-json';
import { resolveDetachedExpression } from './resolve-detached-expression';
import type { WorkflowExport } from './workflow-file';

/** n8n's `…HitlTool` node types: send-and-wait nodes used as a human-review gate in front of tools. */
export function isReviewGateNode(node: Pick<INode, 'type'>): boolean {
	return node.type.endsWith('HitlTool');
}

/**
 * The Message of an n8n 2.41 review gate when the workflow leaves it at its default (an
 * export omits defaults): n8n's own text.
 */
export const DEFAULT_REVIEW_MESSAGE =
	'=The agent wants to run this tool: {{ $tool.name }}\n\nInput:\n{{ $tool.parameters }}';

/**
 * How a gate node asks: its Message with `$tool.name` and `$tool.parameters` filled in for
 * the call (other node data does not exist outside n8n; a Message that cannot be resolved
 * here falls back to n8n's default wording), and its approval button labels.
 */
export function reviewGateSpec(workflow: WorkflowExport, gate: INode): ToolReviewSpec {
	const parameters = gate.parameters ?? {};
	const written = typeof parameters.message === 'string' ? parameters.message : undefined;
	const approval = (parameters.approvalOptions as { values?: Record<string, unknown> } | undefined)
		?.values;
	const label = (value: unknown): string | undefined =>
		typeof value === 'string' && value.trim() !== '' ? value : undefined;
	return {
		reviewNodeName: gate.name,
		approveLabel: label(approval?.approveLabel),
		declineLabel: label(approval?.disapproveLabel),
		message: (toolName, args) => toolMessage(workflow, gate, written, toolName, args),
	};
}

function toolMessage(
	workflow: WorkflowExport,
	gate: INode,
	written: string | undefined,
	toolName: string,
	args: Record<string, unknown>,
): string {
	return (
		resolveMessage(workflow, gate, written, toolName, args) ??
		resolveMessage(workflow, gate, DEFAULT_REVIEW_MESSAGE, toolName, args) ??
		`The agent wants to run this tool: ${toolName}\n\nInput:\n${canonicalJson(args)}`
	);
}

function resolveMessage(
	workflow: WorkflowExport,
	gate: INode,
	message: string | undefined,
	toolName: string,
	args: Record<string, unknown>,
): string | undefined {
	if (message === undefined) return undefined;
	if (!message.startsWith('=')) return message;
	try {
		const value = resolveDetachedExpression(workflow, gate, message, {
			$tool: { name: toolName, parameters: readableParameters(args) },
		});
		return typeof value === 'string' ? value : JSON.stringify(value);
	} catch {
		return undefined;
	}
}

/**
 * The arguments as `$tool.parameters`: fields readable one by one (`$tool.parameters.text`),
 * and the whole as JSON in text (`{{ $tool.parameters }}`), not `[object Object]`.
 */
function readableParameters(args: Record<string, unknown>): Record<string, unknown> {
	const parameters = { ...args };
	Object.defineProperty(parameters, 'toString', { value: () => canonicalJson(args) });
	return parameters;
}
