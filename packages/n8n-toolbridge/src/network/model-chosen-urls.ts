import { collectFromAIMarkers, type WorkflowExport } from 'n8n-nodes-toolbridge';

/** A parameter name that holds where a node connects to: url, baseUrl, webhookUrl, endpoint, host, uri … */
const URL_PARAMETER = /(url|uri|endpoint|host|hostname)$/i;

/** True when a `$fromAI` marker at this parameter path (`['options', 'fields', 0, 'value']`) fills a URL-like parameter. */
export function isUrlParameterPath(segments: readonly (string | number)[]): boolean {
	return segments.some((segment) => typeof segment === 'string' && URL_PARAMETER.test(segment));
}

/** A `{placeholder}` of n8n's HTTP Request Tool (not an expression's `{{`). */
const URL_PLACEHOLDER = /(?<!\{)\{[^{}\s]+\}(?!\})/;

/**
 * The names of the workflow's nodes whose URL the model chooses: a `$fromAI` marker sits
 * in a parameter named url/endpoint/host/… (the HTTP Request node's `url`, any node's
 * `baseUrl` or `endpoint`), whole or as a part of it; or the URL of n8n's HTTP Request Tool
 * (`toolHttpRequest`) holds a `{placeholder}` the model fills.
 */
export function nodesWithModelChosenUrls(workflow: WorkflowExport): Set<string> {
	const names = new Set<string>();
	for (const node of workflow.nodes) {
		const { markers } = collectFromAIMarkers(node.parameters, { nodeName: node.name });
		if (markers.some((marker) => isUrlParameterPath(marker.segments))) names.add(node.name);
		const url = node.parameters.url;
		if (
			node.type.endsWith('.toolHttpRequest') &&
			typeof url === 'string' &&
			URL_PLACEHOLDER.test(url)
		)
			names.add(node.name);
	}
	return names;
}
