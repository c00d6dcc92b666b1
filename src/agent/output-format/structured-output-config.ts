import type { JsonSchema } from '../../schema/json-schema';

/**
 * How the final answer is constrained when the model has no native support chosen:
 * - `response-format`: the final call sends `response_format: { type: 'json_schema' }`
 *   (OpenAI, Gemini, most OpenAI-compatible servers such as Ollama, vLLM, LM Studio);
 * - `tool`: the final call forces a call of a `final_answer` tool whose parameters are the
 *   schema (works with every model that calls tools, e.g. Anthropic);
 * - `auto`: `tool` for the Anthropic family, `response-format` for the others.
 */
export type StructuredOutputStrategy = 'auto' | 'response-format' | 'tool';

/** Output format `json`: the answer is a JSON value that the run validates. Plain JSON. */
export interface StructuredOutputConfig {
	/** The JSON Schema of the answer; absent: any JSON object. */
	schema?: JsonSchema;
	/** Name of the schema (`response_format.json_schema.name`), default `answer`. */
	name?: string;
	/** Default `auto`. */
	strategy?: StructuredOutputStrategy;
}

/** One rejected answer: what the model sent and why it was rejected. */
export interface OutputAttempt {
	answer: string;
	errors: string[];
}

/** Where a run with structured output stands once the loop has answered. Plain JSON. */
export interface StructuredOutputProgress {
	/** Index in `messages` where the answer part began (the loop's own answer, then the constrained calls). */
	start: number;
	/** Rejected answers so far (at most two: the first and the repair). */
	attempts: OutputAttempt[];
	/** The strategy of the constrained calls. */
	strategy: 'response-format' | 'tool';
}

/** The name of the forced tool of the `tool` strategy. */
export const finalAnswerToolName = 'final_answer';

/** How many answers may be rejected: the first, then one repair. */
export const maxOutputAttempts = 2;
