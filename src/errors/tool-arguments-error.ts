import { ToolbridgeError } from './toolbridge-error';

/**
 * Tool-call arguments were not one JSON object. `index` is the character offset where the
 * problem was found (like jsep's `error.index`), `description` the bare reason.
 */
export class ToolArgumentsError extends ToolbridgeError {
	readonly index: number;
	readonly description: string;

	constructor(description: string, index: number, argumentsText: string) {
		const excerpt = argumentsText.length > 120 ? `${argumentsText.slice(0, 120)}…` : argumentsText;
		super(
			'TOOL_ARGUMENTS_INVALID',
			`Tool arguments are not one JSON object: ${description} at position ${index} in ${JSON.stringify(excerpt)}`,
		);
		this.name = 'ToolArgumentsError';
		this.index = index;
		this.description = description;
	}
}
