const marker = Symbol.for('n8n-nodes-toolbridge.error');

/**
 * Base class of every error this package throws. `code` is stable and meant for
 * programs; `message` is meant for people and says what was found and what is allowed.
 *
 * `isInstance` works across copies of the package (n8n may load two), where
 * `instanceof` would not.
 */
export class ToolbridgeError extends Error {
	readonly code: string;

	constructor(code: string, message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.name = 'ToolbridgeError';
		this.code = code;
		Object.defineProperty(this, marker, { value: true });
	}

	/** True for any error of this family, whichever copy of the package made it. */
	static isInstance(error: unknown): error is ToolbridgeError {
		return (
			typeof error === 'object' &&
			error !== null &&
			(error as Record<symbol, unknown>)[marker] === true
		);
	}
}
