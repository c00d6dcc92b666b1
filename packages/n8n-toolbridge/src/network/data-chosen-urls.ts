import type { WorkflowExport } from 'n8n-nodes-toolbridge';
import { isUrlParameterPath } from './model-chosen-urls';

/**
 * True when a node of `workflow` computes a URL-like parameter (url, endpoint, host …) with an
 * expression: in a sub-workflow the model calls, the data those expressions read comes from
 * the model's arguments, so such a URL is as good as model-chosen.
 */
export function hasExpressionUrls(workflow: WorkflowExport): boolean {
	return workflow.nodes.some((node) => expressionUrlIn(node.parameters, []));
}

function expressionUrlIn(value: unknown, path: Array<string | number>): boolean {
	if (typeof value === 'string') return value.startsWith('=') && isUrlParameterPath(path);
	if (Array.isArray(value))
		return value.some((item, index) => expressionUrlIn(item, [...path, index]));
	if (typeof value !== 'object' || value === null) return false;
	return Object.entries(value).some(([key, item]) => expressionUrlIn(item, [...path, key]));
}
