import type { NodeRunResult, StandaloneHost, WorkflowExport } from 'n8n-nodes-toolbridge';
import { nodesWithModelChosenUrls } from './model-chosen-urls';
import { NetworkGuard, type NetworkGuardOptions, type NetworkRefusal } from './network-guard';

/** The error a refused node run reports (what the model reads after `Error: node "…" failed:`). */
export const NETWORK_REFUSED_ERROR = 'NetworkRefusedError';

/**
 * A view of `host` that refuses loopback, private, link-local and metadata addresses for
 * the nodes whose URL the model chooses (`$fromAI` in a url/endpoint/host parameter) — every
 * run of such a node through it: a tool call, a nested agent's tool, a `runWorkflowAgent`
 * loop given this host. Nodes whose URLs the workflow fixes are not affected. The model reads
 * a refusal naming the address instead of the node's output. With `allowPrivateNetwork` the
 * host itself is returned.
 *
 * @returns a host that shares everything with `host` (node types, credentials) but its
 *   `runNode`; `host` itself is not changed.
 */
export function protectPrivateNetwork(
	host: StandaloneHost,
	options: NetworkGuardOptions = {},
): StandaloneHost {
	if (options.allowPrivateNetwork) return host;
	// Built on the first guarded run: n8n's network module is not needed to list tools.
	let guard: NetworkGuard | undefined;
	const guardedNodes = new WeakMap<WorkflowExport, Set<string>>();
	const guarded = Object.create(host) as StandaloneHost;
	guarded.runNode = async (workflow, node, input, runOptions) => {
		let names = guardedNodes.get(workflow);
		if (!names) guardedNodes.set(workflow, (names = nodesWithModelChosenUrls(workflow)));
		if (!names.has(node.name)) return host.runNode(workflow, node, input, runOptions);
		guard ??= new NetworkGuard(options);
		const { value, refusals } = await guard.run(() =>
			host.runNode(workflow, node, input, runOptions),
		);
		return refusals.length > 0 ? refusedResult(refusals[0]) : value;
	};
	return guarded;
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
