import { ToolbridgeError } from 'n8n-nodes-toolbridge';

/**
 * The node descriptions the builder needs cannot be read: n8n's LangChain package is neither
 * installed nor cached and could not be fetched (offline, registry refused), or a package's
 * descriptions are broken. The message says what to install.
 */
export class NodeDescriptionsError extends ToolbridgeError {
	constructor(message: string, options?: { cause?: unknown }) {
		super('NODE_DESCRIPTIONS_UNAVAILABLE', message, options);
		this.name = 'NodeDescriptionsError';
	}
}
