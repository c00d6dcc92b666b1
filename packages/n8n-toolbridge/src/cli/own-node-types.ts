import { orchestratorNodeType } from 'n8n-nodes-toolbridge';
import { AgentOrchestrator } from 'n8n-nodes-toolbridge/dist/nodes/AgentOrchestrator/AgentOrchestrator.node';

/**
 * The node classes this package brings, for the standalone host: the CLI is the one place
 * that composes the host with the package's own nodes (the hosts never import `nodes/`).
 */
export const ownNodeTypes = {
	[orchestratorNodeType]: () => new AgentOrchestrator(),
};
