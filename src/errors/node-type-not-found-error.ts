import { ToolbridgeError } from './toolbridge-error';

/** A node type is not installed, or its version is unknown, or it cannot act as a tool. */
export class NodeTypeNotFoundError extends ToolbridgeError {
	/** The full node type name, e.g. `n8n-nodes-base.cryptoTool`. */
	readonly nodeType: string;

	constructor(nodeType: string, message: string, options?: { cause?: unknown }) {
		super('NODE_TYPE_NOT_FOUND', message, options);
		this.name = 'NodeTypeNotFoundError';
		this.nodeType = nodeType;
	}
}
