import { DynamicStructuredTool } from '@langchain/core/tools';
import { checkArguments } from './coerce-arguments';
import { substituteArguments } from './substitute-arguments';
import { argumentProblemsText } from './tool-observation-text';
import type { NestedAgentToolSpec } from './nested-agent-tool-spec';

/** Runs the nested agent on a prompt and resolves with its final answer text. */
export type RunNestedAgent = (
	prompt: string,
	options: { args: Record<string, unknown>; signal?: AbortSignal },
) => Promise<string>;

/** Options of {@link createNestedAgentTool}. */
export interface CreateNestedAgentToolOptions {
	spec: NestedAgentToolSpec;
	run: RunNestedAgent;
	/**
	 * Resolves the prompt after substitution when it is still an expression (a `$fromAI` inside
	 * larger text, e.g. `=Research {{ $fromAI('topic') }} in depth`). Without it such a prompt is
	 * used as text without its leading `=`.
	 */
	resolveExpression?: (expression: string) => unknown;
}

/**
 * The LangChain tool a nested AgentOrchestrator supplies: its `schema` is the plain JSON
 * Schema (n8n's agent passes a non-zod schema through as JSON Schema, so the model gets
 * real properties whichever zod copy is loaded), `metadata.toolbridge.jsonSchema` the same
 * for our own loop. The call checks and coerces the arguments like the bridge's node tools
 * (problems come back as an `Error: …` text naming field and type), puts them into the
 * prompt at the `$fromAI` markers, runs the agent and returns its answer as plain text.
 * Errors of the run are thrown (the calling loop turns them into an error observation).
 */
export function createNestedAgentTool(
	options: CreateNestedAgentToolOptions,
): DynamicStructuredTool {
	const { spec } = options;
	const tool = new DynamicStructuredTool({
		name: spec.name,
		description: spec.description,
		schema: spec.parameters as Record<string, unknown>,
		func: async (input: unknown, _runManager?: unknown, config?: { signal?: AbortSignal }) => {
			const check = checkArguments(input, spec.schema.zod, spec.schema.parameters);
			if (!check.ok) return argumentProblemsText(spec.name, check.problems);
			const substituted = substituteArguments(
				{ prompt: spec.prompt },
				spec.marked,
				check.args,
			).prompt;
			const prompt = resolvePrompt(substituted, options.resolveExpression);
			return options.run(prompt, { args: check.args, signal: config?.signal });
		},
		metadata: {
			sourceNodeName: spec.sourceNodeName,
			toolbridge: { jsonSchema: spec.parameters, nodeType: 'agentOrchestrator', nestedAgent: true },
		},
	});
	// LangChain checks a JSON Schema tool's input strictly before `func` runs, so "20" for a
	// number would fail there (a ToolInputParsingException for the caller, n8n's AI Agent
	// included) although `func` accepts it. Input that coerces to the schema is coerced
	// first, as the bridge's node tools do; other input goes on as given and fails the check.
	const call = tool.call.bind(tool);
	tool.call = ((arg, ...rest) =>
		call(coercedToolInput(arg, spec) as typeof arg, ...rest)) as typeof tool.call;
	return tool;
}

/** The arguments of a LangChain ToolCall (`{ type: 'tool_call', id, name, args }`) or plain arguments, coerced to the spec's schema when they can be. */
function coercedToolInput(arg: unknown, spec: NestedAgentToolSpec): unknown {
	const toolCall =
		typeof arg === 'object' && arg !== null && (arg as { type?: unknown }).type === 'tool_call'
			? (arg as { args: unknown })
			: undefined;
	const check = checkArguments(
		toolCall ? toolCall.args : arg,
		spec.schema.zod,
		spec.schema.parameters,
	);
	if (!check.ok) return arg;
	return toolCall ? { ...toolCall, args: check.args } : check.args;
}

function resolvePrompt(
	value: unknown,
	resolveExpression?: (expression: string) => unknown,
): string {
	if (typeof value !== 'string') return JSON.stringify(value);
	if (!value.startsWith('=')) return value;
	if (!resolveExpression) return value.slice(1);
	const resolved = resolveExpression(value);
	return typeof resolved === 'string' ? resolved : JSON.stringify(resolved);
}
