import { ToolbridgeError } from './toolbridge-error';

/** Why an agent's output parser failed: it could not be set up, or the answer never passed it. */
export type OutputParserErrorCode = 'OUTPUT_PARSER_UNAVAILABLE' | 'OUTPUT_PARSER_FAILED';

/**
 * An agent's output parser (n8n's Structured Output Parser, Autofixing, Item List) failed:
 * - `OUTPUT_PARSER_UNAVAILABLE`: the parser node could not be supplied (its package is not
 *   installed, its schema is not valid, the Autofixing parser has no model …);
 * - `OUTPUT_PARSER_FAILED`: the model's answer did not pass the parser after the retries (the
 *   loop's repair, then the Autofixing parser's own fixing call when there is one).
 */
export class OutputParserError extends ToolbridgeError {
	/** The agent node whose answer it is. */
	readonly agentName: string;
	/** The output parser node. */
	readonly parserName: string;
	/** The last answer the parser rejected (`OUTPUT_PARSER_FAILED`). */
	readonly answer?: string;

	constructor(
		code: OutputParserErrorCode,
		details: { agentName: string; parserName: string; answer?: string },
		message: string,
		options?: { cause?: unknown },
	) {
		super(code, message, options);
		this.name = 'OutputParserError';
		this.agentName = details.agentName;
		this.parserName = details.parserName;
		if (details.answer !== undefined) this.answer = details.answer;
	}
}
