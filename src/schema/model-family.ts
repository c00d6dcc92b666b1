import type { JsonSchema } from './json-schema';
import { shapeForAnthropic } from './shape-for-anthropic';
import { shapeForGemini } from './shape-for-gemini';
import { shapeForOpenAI } from './shape-for-openai';
import { shapeForOpenAIStrict } from './shape-for-openai-strict';

/**
 * Which provider family a model belongs to, for what its API accepts:
 * - `openai`: OpenAI function calling, best effort (full JSON Schema, arrays need `items`);
 * - `openai-strict`: OpenAI Structured Outputs (`strict: true`), a strict subset;
 * - `anthropic`: Anthropic `input_schema` (JSON Schema, an object at the root);
 * - `google`: Gemini function declarations (an OpenAPI 3.0 subset);
 * - `generic`: any other OpenAI-compatible server (schema passed through).
 */
export type ModelFamily = 'openai' | 'openai-strict' | 'anthropic' | 'google' | 'generic';

/** What a model family needs from a request. Data the request builders read; a new provider quirk is a field of its row. */
export interface ModelFamilyCapabilities {
	/** Model names of the family (an id's last segment, its `:variant` removed). Checked in row order. */
	models?: RegExp;
	/** Vendor prefixes (`vendor/model`) of the family, for names the pattern does not know. */
	vendors?: readonly string[];
	/**
	 * Shapes a tool's parameters for the family's schema dialect. Gets a copy without `$schema`
	 * (see `shapeToolSchema`) and may change it.
	 * @throws {JsonSchemaError} when the schema has no form in the dialect.
	 */
	shapeSchema(schema: JsonSchema): JsonSchema;
	/** How a JSON answer is constrained when the strategy is `auto`: a forced tool call, or `response_format`. */
	structuredOutput: 'tool' | 'response-format';
	/** `response_format: json_schema` may say `strict: true` (when the schema already is strict-compatible). */
	strictResponseFormat: boolean;
	/** Prompt caching needs explicit `cache_control` breakpoints (the others cache prefixes on their own). */
	cacheBreakpoints: boolean;
	/**
	 * The family's models take images (`image_url` parts): images a tool returned are sent to
	 * them. Overridden per run by the `imageInput` setting (a text-only model of a vision family,
	 * a vision model behind a generic server).
	 */
	imageInput: boolean;
	/**
	 * Where a tool's images go: inside the tool result (Anthropic's `tool_result` takes image
	 * blocks; needs a server that maps tool-message image parts to them, see `ChatServer`), or in
	 * a user message right after the tool turn (Chat Completions tool messages carry text only).
	 */
	toolImages: 'tool-result' | 'user-message';
}

/** One row per family, in the order ids are matched. */
export const modelFamilies: Readonly<Record<ModelFamily, ModelFamilyCapabilities>> = {
	anthropic: {
		models: /^(claude|anthropic\.claude)/,
		vendors: ['anthropic'],
		shapeSchema: shapeForAnthropic,
		// Anthropic models follow a forced tool far more reliably than a response_format.
		structuredOutput: 'tool',
		strictResponseFormat: false,
		cacheBreakpoints: true,
		imageInput: true,
		toolImages: 'tool-result',
	},
	google: {
		models: /^(gemini|gemma|learnlm)/,
		vendors: ['google', 'google-ai-studio', 'google-vertex', 'vertex', 'vertex_ai', 'gemini'],
		shapeSchema: shapeForGemini,
		structuredOutput: 'response-format',
		strictResponseFormat: false,
		cacheBreakpoints: true,
		imageInput: true,
		toolImages: 'user-message',
	},
	openai: {
		models: /^(gpt-|chatgpt|o\d(-|$)|codex|text-davinci|davinci|babbage|computer-use)/,
		vendors: ['openai'],
		shapeSchema: shapeForOpenAI,
		structuredOutput: 'response-format',
		strictResponseFormat: true,
		cacheBreakpoints: false,
		// gpt-4o, gpt-4.1, gpt-5, o1, o3 and o4 take images; older text-only ones need `imageInput: false`.
		imageInput: true,
		toolImages: 'user-message',
	},
	// Never detected from an id: strict mode is the caller's choice, not the model's.
	'openai-strict': {
		shapeSchema: shapeForOpenAIStrict,
		structuredOutput: 'response-format',
		strictResponseFormat: true,
		cacheBreakpoints: false,
		imageInput: true,
		toolImages: 'user-message',
	},
	generic: {
		// Servers differ; the canonical schema is the safest guess.
		shapeSchema: (schema) => schema,
		structuredOutput: 'response-format',
		strictResponseFormat: false,
		cacheBreakpoints: false,
		// Unknown models may be text-only (many local ones): images only when the run says so.
		imageInput: false,
		toolImages: 'user-message',
	},
};

const familyRows = Object.entries(modelFamilies) as Array<[ModelFamily, ModelFamilyCapabilities]>;

/**
 * The model family of a model id, for {@link shapeToolSchema}. Understands OpenRouter ids
 * (`google/gemini-2.5-pro`, `anthropic/claude-sonnet-4:thinking`, `~openai/gpt-latest`),
 * bare ids (`gpt-4o`, `o3-mini`, `claude-3-5-haiku-latest`, `gemini-2.0-flash`,
 * `models/gemini-1.5-pro`), LiteLLM-style prefixes (`vertex_ai/…`, `bedrock/anthropic.claude…`).
 * A bare Ollama-style name with a tag (`gemma3:4b`, `gpt-oss:20b`) is a local model behind an
 * OpenAI-compatible server: `generic`, whatever its name. Unknown ids are `generic`.
 * Never returns `openai-strict`: strict mode is the caller's choice, not the model's.
 */
export function modelFamilyFromModelId(modelId: string): ModelFamily {
	// The agent asks for every model call, nearly always about the same id.
	if (modelId !== lastModelId) {
		lastFamily = familyOf(modelId);
		lastModelId = modelId;
	}
	return lastFamily;
}

let lastModelId: string | undefined;
let lastFamily: ModelFamily = 'generic';

function familyOf(modelId: string): ModelFamily {
	const id = modelId.trim().toLowerCase().replace(/^~/, '');
	if (id === '') return 'generic';
	const segments = id.split('/');
	const hasVendor = segments.length > 1 && segments[0] !== 'models';
	// OpenRouter variants (`:free`, `:thinking`, `:nitro`) vs Ollama tags (`:4b`, `:latest`).
	if (!hasVendor && id.includes(':')) return 'generic';
	const model = (segments[segments.length - 1] ?? '').replace(/:[^:]*$/, '');
	for (const [family, row] of familyRows) if (row.models?.test(model)) return family;
	if (hasVendor)
		for (const [family, row] of familyRows) if (row.vendors?.includes(segments[0])) return family;
	return 'generic';
}
