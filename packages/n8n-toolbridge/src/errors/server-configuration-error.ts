import { ToolbridgeError } from 'n8n-nodes-toolbridge';

/** A server cannot start as asked: a bad `[HOST:]PORT`, or a non-loopback address without a token (exit 2). */
export class ServerConfigurationError extends ToolbridgeError {
	constructor(message: string) {
		super('SERVER_CONFIGURATION', message);
		this.name = 'ServerConfigurationError';
	}
}
