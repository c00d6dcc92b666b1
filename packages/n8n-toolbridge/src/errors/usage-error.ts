import { ToolbridgeError } from 'n8n-nodes-toolbridge';

/** A command line the `toolbridge` command cannot act on (exit code 2). */
export class UsageError extends ToolbridgeError {
	constructor(message: string) {
		super('CLI_USAGE', message);
		this.name = 'UsageError';
	}
}
