import { ToolbridgeError } from 'n8n-nodes-toolbridge';

/** Why a conversation store failed: a `--store` it cannot open, or a backend that stopped answering. */
export type ConversationStoreErrorCode = 'STORE_URL_INVALID' | 'STORE_UNAVAILABLE';

/**
 * A conversation store (`--store`) that cannot be used: `STORE_URL_INVALID` for a value that is
 * neither `redis://`, `rediss://`, `postgres://`, `postgresql://` nor a file path (exit 2 on the
 * CLI), `STORE_UNAVAILABLE` when its server cannot be reached or refuses (the message names the
 * backend, never the URL's password).
 */
export class ConversationStoreError extends ToolbridgeError {
	constructor(code: ConversationStoreErrorCode, message: string, options?: { cause?: unknown }) {
		super(code, message, options);
		this.name = 'ConversationStoreError';
	}
}
