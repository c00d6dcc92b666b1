import { ToolbridgeError } from './toolbridge-error';

/**
 * A run on a conversation session was refused because another run on the same session holds
 * its lock (`SESSION_BUSY`; the servers answer 409). Two turns of one conversation never run
 * at once: their messages would interleave in the memory. `sessionId` is the session's key as
 * the memory node resolved it.
 */
export class SessionBusyError extends ToolbridgeError {
	readonly sessionId: string;

	constructor(sessionId: string, message: string) {
		super('SESSION_BUSY', message);
		this.name = 'SessionBusyError';
		this.sessionId = sessionId;
	}
}
