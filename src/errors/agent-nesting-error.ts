import { ToolbridgeError } from './toolbridge-error';

/**
 * A nested agent refused to run: the chain of agents calling agents is deeper than the
 * depth limit (`AGENT_NESTING_DEPTH`), or an agent would call itself through the chain
 * (`AGENT_NESTING_CYCLE`). `path` is the chain from the outermost agent, this one last.
 */
export class AgentNestingError extends ToolbridgeError {
	readonly path: string[];

	constructor(kind: 'depth' | 'cycle', message: string, path: string[]) {
		super(kind === 'depth' ? 'AGENT_NESTING_DEPTH' : 'AGENT_NESTING_CYCLE', message);
		this.name = 'AgentNestingError';
		this.path = path;
	}
}
