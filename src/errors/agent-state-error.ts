import { ToolbridgeError } from './toolbridge-error';

/**
 * A transition was applied to an agent state that cannot take it (a model turn while
 * tool results are due, a state of an unknown version…). A bug in a driver, not in the
 * model's output.
 */
export class AgentStateError extends ToolbridgeError {
	constructor(message: string) {
		super('AGENT_STATE', message);
		this.name = 'AgentStateError';
	}
}
