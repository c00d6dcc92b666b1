import type { NodeRunGuard, NodeRunResult, WorkflowExport } from 'n8n-nodes-toolbridge';
import { hasExpressionUrls } from './data-chosen-urls';
import { nodesWithModelChosenUrls } from './model-chosen-urls';
import { NetworkGuard, type NetworkGuardOptions, type NetworkRefusal } from './network-guard';

/** The error a refused node run reports (what the model reads after `Error: node "…" failed:`). */
export const NETWORK_REFUSED_ERROR = 'NetworkRefusedError';

/**
 * The session guard (`openWorkflowSession({ guard })`) that refuses loopback, private,
 * link-local and metadata addresses for the nodes whose URL the model chooses (`$fromAI` in a
 * url/endpoint/host parameter) — every run of such a node in the session: a tool call, a
 * nested agent's tool, an agent loop's — and every sub-workflow run (the model gives its
 * inputs) in which a node computes its URL with an expression. Nodes whose URLs the workflow
 * fixes are not affected.
 * The model reads a refusal naming the address instead of the node's output. With
 * `allowPrivateNetwork` there is no guard (`undefined`).
 */
export function privateNetworkGuard(options: NetworkGuardOptions = {}): NodeRunGuard | undefined {
	if (options.allowPrivateNetwork) return undefined;
	// Built on the first guarded run: n8n's network module is not needed to list tools.
	let guard: NetworkGuard | undefined;
	const guardedNodes = new WeakMap<WorkflowExport, Set<string>>();
	return async ({ workflow, node, subWorkflow }, run) => {
		let names = guardedNodes.get(workflow);
		if (!names) guardedNodes.set(workflow, (names = nodesWithModelChosenUrls(workflow)));
		if (subWorkflow ? !hasExpressionUrls(subWorkflow) : !names.has(node.name)) return run();
		guard ??= new NetworkGuard(options);
		const { value, refusals } = await guard.run(run);
		return refusals.length > 0 ? refusedResult(refusals[0]) : value;
	};
}

function refusedResult(refusal: NetworkRefusal): NodeRunResult {
	const target = refusal.hostname ? `${refusal.hostname} (${refusal.address})` : refusal.address;
	return {
		items: [],
		error: {
			name: NETWORK_REFUSED_ERROR,
			message: `Refused to connect to ${target}: a loopback, private, link-local or cloud-metadata address. Tools may not reach internal networks with URLs the model chooses.`,
			description:
				'Use a public URL. (Whoever runs this server can allow internal addresses with --allow-private-network.)',
		},
	};
}
