import { ToolbridgeError } from './toolbridge-error';

/**
 * An n8n `EngineResponse` handed to the node cannot be resumed from: its metadata does not
 * hold this package's run state (another node's request, an unknown version, or data lost
 * between re-entries).
 */
export class EngineStateError extends ToolbridgeError {
	constructor(message: string) {
		super('ENGINE_STATE', message);
		this.name = 'EngineStateError';
	}
}
