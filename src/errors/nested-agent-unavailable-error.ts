import { ToolbridgeError } from './toolbridge-error';

/**
 * A nested AgentOrchestrator was called as a tool where no model connection was given to
 * run it (e.g. `loadWorkflowTools` without `runNestedAgent`). Code `NESTED_AGENT_UNAVAILABLE`.
 */
export class NestedAgentUnavailableError extends ToolbridgeError {
	readonly nodeName: string;

	constructor(nodeName: string) {
		super(
			'NESTED_AGENT_UNAVAILABLE',
			`"${nodeName}" is a nested agent: running it needs a model connection, which this host was not given. Use "toolbridge run", "toolbridge call" (with --base-url / --api-key as needed) or runWorkflowAgent.`,
		);
		this.name = 'NestedAgentUnavailableError';
		this.nodeName = nodeName;
	}
}
