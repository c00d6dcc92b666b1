import { ToolbridgeError } from './toolbridge-error';

/**
 * A node, or a client library it uses (gRPC, a database driver, a socket), threw or rejected
 * outside the promise of the node's run while the run was in flight: the run ends with this
 * error instead of the process ending with Node's uncaught-error dump. The message reads after
 * `node "X" failed: ` and carries the stray error's own message.
 */
export class StrayNodeError extends ToolbridgeError {
	/** The node whose run it ended. */
	readonly nodeName: string;
	/** That node's type. */
	readonly nodeType: string;

	constructor(options: { nodeName: string; nodeType: string; cause: unknown }) {
		super(
			'NODE_STRAY_ERROR',
			`an error escaped the node's run (thrown outside its promise, e.g. by its client library): ${strayMessage(options.cause)}`,
			{ cause: options.cause },
		);
		this.name = 'StrayNodeError';
		this.nodeName = options.nodeName;
		this.nodeType = options.nodeType;
	}
}

/** The message of whatever was thrown, on one line (no stack). */
export function strayMessage(error: unknown): string {
	const message =
		error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error)
			? String((error as { message: unknown }).message)
			: String(error);
	return message.replace(/\s*\n\s*/g, ' ').trim() || 'unknown error';
}
