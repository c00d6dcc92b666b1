/**
 * Which schema dialect a model's provider accepts for tool parameters:
 * - `openai`: OpenAI function calling, best effort (full JSON Schema, arrays need `items`);
 * - `openai-strict`: OpenAI Structured Outputs (`strict: true`), a strict subset;
 * - `anthropic`: Anthropic `input_schema` (JSON Schema, an object at the root);
 * - `google`: Gemini function declarations (an OpenAPI 3.0 subset);
 * - `generic`: any other OpenAI-compatible server (schema passed through).
 */
export type ModelFamily = 'openai' | 'openai-strict' | 'anthropic' | 'google' | 'generic';

const OPENAI_MODEL = /^(gpt-|chatgpt|o\d(-|$)|codex|text-davinci|davinci|babbage|computer-use)/;
const ANTHROPIC_MODEL = /^(claude|anthropic\.claude)/;
const GOOGLE_MODEL = /^(gemini|gemma|learnlm)/;

const VENDOR_FAMILIES: Record<string, ModelFamily> = {
	openai: 'openai',
	anthropic: 'anthropic',
	google: 'google',
	'google-ai-studio': 'google',
	'google-vertex': 'google',
	vertex: 'google',
	vertex_ai: 'google',
	gemini: 'google',
};

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
	if (ANTHROPIC_MODEL.test(model)) return 'anthropic';
	if (GOOGLE_MODEL.test(model)) return 'google';
	if (OPENAI_MODEL.test(model)) return 'openai';
	if (hasVendor) return VENDOR_FAMILIES[segments[0]] ?? 'generic';
	return 'generic';
}
