import { ToolbridgeError } from './toolbridge-error';

/** A node needs something the standalone host cannot give (a trigger, a webhook, a task runner). */
export class UnsupportedNodeError extends ToolbridgeError {
	/** The node's name in the workflow. */
	readonly nodeName: string;

	constructor(nodeName: string, message: string) {
		super('NODE_UNSUPPORTED', message);
		this.name = 'UnsupportedNodeError';
		this.nodeName = nodeName;
	}
}
