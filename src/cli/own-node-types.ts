import { AgentOrchestrator } from '../../nodes/AgentOrchestrator/AgentOrchestrator.node';
import { orchestratorNodeType } from '../hosts/standalone/workflow/run-workflow-agent-node';

/**
 * The node classes this package brings, for the standalone host: the CLI is the one place
 * that composes the host with the package's own nodes (the hosts never import `nodes/`).
 */
export const ownNodeTypes = {
	[orchestratorNodeType]: () => new AgentOrchestrator(),
};
