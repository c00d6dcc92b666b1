import { ToolbridgeError } from './toolbridge-error';

/**
 * The agent's memory sub-node could not be used (`MEMORY_UNAVAILABLE`): its node type is not
 * installed, it supplied no chat memory, or its service (Postgres, Redis, Zep …) could not be
 * reached or refused to load or save the conversation. The message names the node, its type
 * and the reason; `cause` is the node's own error.
 */
export class MemoryUnavailableError extends ToolbridgeError {
	readonly nodeName: string;

	constructor(nodeName: string, message: string, options?: { cause?: unknown }) {
		super('MEMORY_UNAVAILABLE', message, options);
		this.name = 'MemoryUnavailableError';
		this.nodeName = nodeName;
	}
}
