import { ToolbridgeError } from '../errors/toolbridge-error';
import type { JsonSchema, WireTool, WireToolChoice } from './types';
import type { ModelFamily } from '../schema/model-family';
import { shapeToolSchema } from '../schema/shape-tool-schema';
import { isZodSchema, zodToJsonSchema, type ZodSchemaLike } from '../schema/zod-to-json-schema';

/**
 * A tool to convert: our `AgentTool` (`parameters`), a LangChain structured tool
 * (`schema`), or a plain definition. The schema may be JSON Schema or zod.
 */
export interface ToolDefinitionLike {
	name: string;
	description?: string;
	parameters?: JsonSchema | ZodSchemaLike;
	schema?: JsonSchema | ZodSchemaLike;
}

/** Which tool the model may or must call (the AI SDK's shape). */
export type ToolChoice = 'auto' | 'required' | 'none' | { type: 'tool'; toolName: string };

/** Anthropic Messages API tool. */
export interface AnthropicTool {
	name: string;
	description?: string;
	input_schema: JsonSchema;
}

/** Anthropic `tool_choice`. */
export type AnthropicToolChoice =
	{ type: 'auto' } | { type: 'any' } | { type: 'none' } | { type: 'tool'; name: string };

/** Google Gemini `toolConfig`. */
export interface GoogleToolConfig {
	functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] };
}

/**
 * The tool's parameters as JSON Schema (zod converted, `$schema` removed; a missing
 * schema is an empty object schema).
 * @throws ToolbridgeError `ZOD_CONVERSION_UNAVAILABLE` for a zod schema without @langchain/core
 */
export function toolParametersSchema(tool: ToolDefinitionLike): JsonSchema {
	const schema = tool.parameters ?? tool.schema;
	if (schema === undefined) return { type: 'object', properties: {} };
	if (isZodSchema(schema)) return zodToJsonSchema(schema);
	const { $schema: _ignored, ...rest } = schema as JsonSchema;
	return rest;
}

/**
 * OpenAI / OpenRouter function tool: `{ type: 'function', function: { name, description, parameters } }`
 * (no `description` when it is empty).
 * @throws ToolbridgeError `ZOD_CONVERSION_UNAVAILABLE` for a zod schema without @langchain/core
 */
export function toOpenAITool(tool: ToolDefinitionLike): WireTool {
	return toWireTool({
		name: tool.name,
		description: tool.description || undefined,
		parameters: toolParametersSchema(tool),
	});
}

/**
 * THE Chat Completions function tool, fields in wire order: what every request builder sends
 * (the loop, the validator, the `final_answer` tool, the chat-model sub-node, `toOpenAITool`).
 * `description` and `strict` only when given. With a `family`, the parameters are shaped for
 * it (`shapeToolSchema`); without, they go as given.
 * @throws {JsonSchemaError} when the family's shaping finds no form for the schema (`openai-strict`).
 */
export function toWireTool(
	tool: { name: string; description?: string; parameters: JsonSchema; strict?: boolean },
	family?: ModelFamily,
): WireTool {
	const { name, description, parameters, strict } = tool;
	return {
		type: 'function',
		function: {
			name,
			...(description !== undefined ? { description } : {}),
			parameters: family === undefined ? parameters : shapeToolSchema(parameters, { family }),
			...(strict !== undefined ? { strict } : {}),
		},
	};
}

/**
 * Anthropic tool: `{ name, description, input_schema }`.
 * @throws ToolbridgeError `ZOD_CONVERSION_UNAVAILABLE` for a zod schema without @langchain/core
 */
export function toAnthropicTool(tool: ToolDefinitionLike): AnthropicTool {
	const anthropic: AnthropicTool = { name: tool.name, input_schema: toolParametersSchema(tool) };
	if (tool.description) anthropic.description = tool.description;
	return anthropic;
}

/**
 * A tool choice in a provider's own format.
 * @throws ToolbridgeError `TOOL_CHOICE_INVALID` for an unknown choice or provider
 */
export function toProviderToolChoice(choice: ToolChoice, provider: 'openai'): WireToolChoice;
export function toProviderToolChoice(
	choice: ToolChoice,
	provider: 'anthropic',
): AnthropicToolChoice;
export function toProviderToolChoice(choice: ToolChoice, provider: 'google'): GoogleToolConfig;
export function toProviderToolChoice(
	choice: ToolChoice,
	provider: 'openai' | 'anthropic' | 'google',
): WireToolChoice | AnthropicToolChoice | GoogleToolConfig;
export function toProviderToolChoice(
	choice: ToolChoice,
	provider: 'openai' | 'anthropic' | 'google',
): WireToolChoice | AnthropicToolChoice | GoogleToolConfig {
	const toolName =
		typeof choice === 'object' &&
		choice !== null &&
		choice.type === 'tool' &&
		typeof choice.toolName === 'string'
			? choice.toolName
			: undefined;
	if (toolName === undefined && choice !== 'auto' && choice !== 'required' && choice !== 'none') {
		throw new ToolbridgeError(
			'TOOL_CHOICE_INVALID',
			`Unknown tool choice ${JSON.stringify(choice)}; allowed: 'auto', 'required', 'none', { type: 'tool', toolName }.`,
		);
	}
	switch (provider) {
		case 'openai':
			return toolName === undefined
				? (choice as WireToolChoice)
				: { type: 'function', function: { name: toolName } };
		case 'anthropic':
			if (toolName !== undefined) return { type: 'tool', name: toolName };
			return choice === 'required' ? { type: 'any' } : { type: choice as 'auto' | 'none' };
		case 'google':
			if (toolName !== undefined)
				return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [toolName] } };
			return {
				functionCallingConfig: {
					mode: choice === 'required' ? 'ANY' : choice === 'none' ? 'NONE' : 'AUTO',
				},
			};
		default:
			throw new ToolbridgeError(
				'TOOL_CHOICE_INVALID',
				`Unknown provider ${JSON.stringify(provider)}; allowed: openai, anthropic, google.`,
			);
	}
}
