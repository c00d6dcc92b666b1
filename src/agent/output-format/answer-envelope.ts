import type { JsonSchema } from '../../schema/json-schema';

/**
 * The object schema sent for a constrained answer. `response_format` and tool parameters
 * both need an object at the root, so any other schema is wrapped as `{ value: schema }`
 * (and the answer unwrapped again). No schema: any JSON object.
 */
export interface AnswerEnvelope {
	schema: JsonSchema;
	wrapped: boolean;
}

/** Wraps a non-object root schema in `{ value }`; see {@link AnswerEnvelope}. */
export function answerEnvelope(schema: JsonSchema | undefined): AnswerEnvelope {
	if (schema === undefined) return { schema: { type: 'object' }, wrapped: false };
	const type = schema.type;
	const objectRoot =
		type === 'object' ||
		(type === undefined &&
			typeof schema.properties === 'object' &&
			schema.anyOf === undefined &&
			schema.oneOf === undefined);
	if (objectRoot) return { schema, wrapped: false };
	const { $schema: _ignored, ...inner } = schema;
	return {
		schema: {
			type: 'object',
			properties: { value: inner },
			required: ['value'],
			additionalProperties: false,
		},
		wrapped: true,
	};
}

/** The answer inside an envelope: `value` of a wrapped answer, the answer itself otherwise. */
export function unwrapAnswer(answer: unknown, envelope: AnswerEnvelope): unknown {
	if (!envelope.wrapped) return answer;
	return typeof answer === 'object' &&
		answer !== null &&
		!Array.isArray(answer) &&
		'value' in answer
		? (answer as { value: unknown }).value
		: answer;
}
