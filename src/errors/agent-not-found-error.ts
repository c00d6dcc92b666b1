import { ToolbridgeError } from './toolbridge-error';

/** No agent (target of `ai_tool` connections) matches, or several do and none was chosen. */
export class AgentNotFoundError extends ToolbridgeError {
	/** Names of the nodes that receive `ai_tool` connections in the workflow. */
	readonly candidates: string[];

	constructor(message: string, candidates: string[]) {
		super('AGENT_NOT_FOUND', message);
		this.name = 'AgentNotFoundError';
		this.candidates = candidates;
	}
}
