import { toWireTool } from '../../chat/tool-conversion';
import type { ChatMessage, ChatRequest, ContentPart } from '../../chat/types';
import type { JsonSchema } from '../../schema/json-schema';
import { modelFamilies, type ModelFamily } from '../../schema/model-family';
import { shapeToolSchema } from '../../schema/shape-tool-schema';
import { shapeForOpenAIStrict, strictSchemaProblems } from '../../schema/shape-for-openai-strict';
import { canonicalJson } from '../canonical-json';
import { answerEnvelope } from './answer-envelope';
import {
	finalAnswerToolName,
	type StructuredOutputConfig,
	type StructuredOutputStrategy,
} from './structured-output-config';

/** The strategy `auto` resolves to for a model family (its row's `structuredOutput`: a forced tool call for Anthropic, `response_format` elsewhere). */
export function resolveOutputStrategy(
	strategy: StructuredOutputStrategy | undefined,
	family: ModelFamily,
): 'response-format' | 'tool' {
	if (strategy === 'tool' || strategy === 'response-format') return strategy;
	return modelFamilies[family].structuredOutput;
}

/**
 * The sentence added to the system message of every call of a run with output format
 * `json`, so the loop's own answer is usually already valid (then no extra call is made).
 */
export function outputInstruction(config: StructuredOutputConfig): string {
	if (config.schema === undefined)
		return 'When you give your final answer (not a tool call), reply with only a JSON object, without code fences or other text.';
	return `When you give your final answer (not a tool call), reply with only a JSON value, without code fences or other text, that matches this JSON Schema:\n${JSON.stringify(config.schema)}`;
}

/** The messages with {@link outputInstruction} appended to the system message (one is added when there is none). */
export function withOutputInstruction(
	messages: ChatMessage[],
	config: StructuredOutputConfig,
): ChatMessage[] {
	const instruction = outputInstruction(config);
	const first = messages[0];
	if (first?.role !== 'system') return [{ role: 'system', content: instruction }, ...messages];
	const content: string | ContentPart[] =
		typeof first.content === 'string'
			? `${first.content}\n\n${instruction}`
			: [...first.content, { type: 'text', text: `\n\n${instruction}` }];
	return [{ role: 'system', content }, ...messages.slice(1)];
}

/** The user message that asks for the constrained answer, kept in the state. */
export function answerNowInstruction(
	strategy: 'response-format' | 'tool',
	config: StructuredOutputConfig,
): string {
	if (strategy === 'tool') {
		const wrapped = answerEnvelope(config.schema).wrapped;
		return `Give your final answer now by calling the tool '${finalAnswerToolName}' with ${wrapped ? 'the answer as its "value" argument' : 'the answer as its arguments'}. Do not call any other tool.`;
	}
	return 'Give your final answer now: only the JSON value the schema describes, with no other text.';
}

/** The text that tells the model why its answer was rejected (one repair attempt). */
export function repairInstruction(errors: string[]): string {
	return `Your answer does not match the required JSON Schema:\n${errors.map((error) => `- ${error}`).join('\n')}\nSend the corrected answer, complete, with every problem fixed.`;
}

/**
 * Constrains an `output-call` request: `response_format: json_schema` (strict only when
 * the schema already is strict-compatible, so the validated shape and the sent one agree),
 * or the `final_answer` tool forced with `tool_choice`. The other tools stay listed (a
 * history with tool calls needs them on some providers) but may not be called.
 */
export function constrainOutputCall(
	request: ChatRequest,
	config: StructuredOutputConfig,
	strategy: 'response-format' | 'tool',
	family: ModelFamily,
): void {
	const envelope = answerEnvelope(config.schema);
	const name = config.name ?? 'answer';
	if (strategy === 'response-format') {
		if (config.schema === undefined) request.response_format = { type: 'json_object' };
		else {
			const strict = modelFamilies[family].strictResponseFormat && isAlreadyStrict(envelope.schema);
			const schema = shapeToolSchema(envelope.schema, { family });
			request.response_format = {
				type: 'json_schema',
				json_schema: strict ? { name, strict: true, schema } : { name, schema },
			};
		}
		if (request.tools) request.tool_choice = 'none';
		return;
	}
	const tool = toWireTool(
		{
			name: finalAnswerToolName,
			description: `Gives the final answer (${name}). Its arguments are the answer.`,
			parameters: envelope.schema,
		},
		family,
	);
	request.tools = [...(request.tools ?? []), tool];
	request.tool_choice = { type: 'function', function: { name: finalAnswerToolName } };
	delete request.parallel_tool_calls;
}

/**
 * True when the schema is strict-compatible unchanged (every property required, no extra
 * properties): strict shaping would turn optional fields into nullable ones, and the
 * answer is validated against the schema as given.
 */
function isAlreadyStrict(schema: JsonSchema): boolean {
	if (strictSchemaProblems(schema).length > 0) return false;
	const { $schema: _ignored, ...plain } = schema;
	return canonicalJson(shapeForOpenAIStrict(plain)) === canonicalJson(plain);
}
