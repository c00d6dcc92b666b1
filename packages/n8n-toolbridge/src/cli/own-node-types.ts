import { createRequire } from 'node:module';
import { orchestratorNodeType } from 'n8n-nodes-toolbridge';
import type { AgentOrchestrator } from 'n8n-nodes-toolbridge/dist/nodes/AgentOrchestrator/AgentOrchestrator.node';

/**
 * The node classes this package brings, for the standalone host: the CLI is the one place
 * that composes the host with the package's own nodes (the hosts never import `nodes/`).
 * The class loads when the host first needs it, not at start-up.
 */
export const ownNodeTypes = {
	[orchestratorNodeType]: () => {
		const { AgentOrchestrator: NodeClass } = createRequire(__filename)(
			'n8n-nodes-toolbridge/dist/nodes/AgentOrchestrator/AgentOrchestrator.node',
		) as {
			AgentOrchestrator: new () => AgentOrchestrator;
		};
		return new NodeClass();
	},
};
