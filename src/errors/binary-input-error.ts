import { ToolbridgeError } from './toolbridge-error';

/** Why an item's file could not be sent to the model. */
export type BinaryInputErrorCode =
	'BINARY_TOO_LARGE' | 'BINARY_UNSUPPORTED_TYPE' | 'BINARY_PROPERTY_MISSING';

/**
 * A file of the input item cannot go to the model with the prompt ("Binary Input"): it is
 * larger than "Max Binary Size (MB)", its type is not one the model can take, or the
 * binary property named in "Binary Property Names" is not on the item.
 */
export class BinaryInputError extends ToolbridgeError {
	/** The item's binary property, e.g. `data`. */
	readonly property: string;
	/** The file's size in bytes, when known. */
	readonly bytes?: number;
	/** The limit in bytes (`BINARY_TOO_LARGE`). */
	readonly limitBytes?: number;

	constructor(
		code: BinaryInputErrorCode,
		message: string,
		details: { property: string; bytes?: number; limitBytes?: number },
		options?: { cause?: unknown },
	) {
		super(code, message, options);
		this.name = 'BinaryInputError';
		this.property = details.property;
		if (details.bytes !== undefined) this.bytes = details.bytes;
		if (details.limitBytes !== undefined) this.limitBytes = details.limitBytes;
	}
}
