import { toWireTool } from '../chat/tool-conversion';
import type { ChatRequest, WireTool, WireToolChoice } from '../chat/types';
import type { JsonSchema } from '../schema/json-schema';
import { modelFamilyFromModelId, type ModelFamily } from '../schema/model-family';
import { shapeToolSchema } from '../schema/shape-tool-schema';
import type { AgentState } from './agent-state';
import {
	constrainOutputCall,
	resolveOutputStrategy,
	withOutputInstruction,
} from './output-format/structured-output-request';
import { finalAnswerInstruction } from './tool-observations';
import { modelRequest } from './model-options';
import { withToolImages } from './tool-images';

/**
 * The Chat Completions request for the next model call of a state in `ready`,
 * `final-call` or `output-call`. Only settings that were given are sent.
 *
 * - Images tools returned go after their tool results, for a model that takes images
 *   (`withToolImages`).
 * - Tool schemas are shaped for the model's family (`shapeToolSchema`), from the one
 *   canonical schema each tool carries.
 * - A final call keeps the tool definitions (providers such as Anthropic reject a history
 *   with tool calls but no tools) with `tool_choice: "none"`, and adds one user message
 *   telling the model to answer; that message is not kept in the state.
 * - Output format `json`: the system message says what JSON to answer with; an
 *   `output-call` is constrained (`response_format` or a forced `final_answer` tool).
 * - The model settings are written for the run's server (`modelRequest`): OpenRouter's own
 *   fields (`models`, `provider`, `cache_control`) only when it is OpenRouter;
 *   `providerOptions` are merged last: their top-level keys win.
 */
export function buildChatRequest(state: AgentState): ChatRequest {
	const { config } = state;
	const final = state.status === 'final-call';
	const output = state.status === 'output-call';
	const family = modelFamilyFromModelId(config.model);

	let messages = withToolImages(state.messages, state.toolImages, config);
	if (final)
		messages = [
			...messages,
			{ role: 'user', content: finalAnswerInstruction(state.limitReached ?? 'max-iterations') },
		];
	if (config.structuredOutput) messages = withOutputInstruction(messages, config.structuredOutput);
	return modelRequest(config, messages, (request) => {
		if (state.tools.length > 0) {
			request.tools = wireTools(state.tools, family);
			const choice = final || output ? 'none' : toolChoiceFor(state);
			if (choice !== 'auto') request.tool_choice = choice;
			if (config.parallelToolCalls !== undefined && !final && !output)
				request.parallel_tool_calls = config.parallelToolCalls;
		}
		if (output && config.structuredOutput) {
			const strategy =
				state.structured?.strategy ??
				resolveOutputStrategy(config.structuredOutput.strategy, family);
			constrainOutputCall(request, config.structuredOutput, strategy, family);
		}
	});
}

/**
 * Shaped tool schemas, per canonical schema object and model family. A state's schemas are
 * never changed in place (states are replaced, not mutated), so a run shapes each schema
 * once instead of deep-copying it for every model call; a resumed (deserialized) state
 * simply brings new objects.
 */
const shapedSchemas = new WeakMap<JsonSchema, Map<ModelFamily, JsonSchema>>();

function shapedSchema(schema: JsonSchema, family: ModelFamily): JsonSchema {
	let byFamily = shapedSchemas.get(schema);
	if (!byFamily) {
		byFamily = new Map();
		shapedSchemas.set(schema, byFamily);
	}
	let shaped = byFamily.get(family);
	if (!shaped) {
		shaped = shapeToolSchema(schema, { family });
		byFamily.set(family, shaped);
	}
	return shaped;
}

/**
 * The wire tool definitions, per tool list and model family: the same array for every call
 * of a run (a step copies the state, not its tool list), which the chat caller's
 * RequestBodyWriter then serializes once.
 */
const wireToolLists = new WeakMap<AgentState['tools'], Map<ModelFamily, WireTool[]>>();

function wireTools(tools: AgentState['tools'], family: ModelFamily): WireTool[] {
	let byFamily = wireToolLists.get(tools);
	if (!byFamily) {
		byFamily = new Map();
		wireToolLists.set(tools, byFamily);
	}
	let wire = byFamily.get(family);
	if (!wire) {
		wire = tools.map((tool) =>
			toWireTool({
				name: tool.name,
				description: tool.description,
				parameters: shapedSchema(tool.parameters, family),
			}),
		);
		byFamily.set(family, wire);
	}
	return wire;
}

/** `required` and a named tool bind the first call only; later calls may answer. */
function toolChoiceFor(state: AgentState): WireToolChoice {
	const choice = state.config.toolChoice;
	if (choice === 'auto' || choice === 'none') return choice;
	if (state.iterations > 0) return 'auto';
	if (choice === 'required') return 'required';
	return { type: 'function', function: { name: choice.name } };
}
