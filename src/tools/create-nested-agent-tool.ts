import type { JsonSchema } from '../schema/json-schema';
import type { CompiledTool, ToolObservation } from './agent-tool';
import { checkArguments } from './coerce-arguments';
import { substituteArguments } from './substitute-arguments';
import { argumentProblemsText, errorObservationText } from './tool-observation-text';
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
 * The tool a nested AgentOrchestrator offers its parent. The call checks and coerces the
 * arguments like the bridge's node tools (problems come back as an `Error: …` observation
 * naming field and type), puts them into the prompt at the `$fromAI` markers, runs the agent
 * and answers with its final answer as plain text; a failed run is an error observation with
 * the error's message and description.
 */
export function createNestedAgentTool(options: CreateNestedAgentToolOptions): CompiledTool {
	const { spec } = options;
	return {
		name: spec.name,
		description: spec.description,
		parameters: spec.parameters as JsonSchema,
		schema: spec.schema,
		sourceNodeName: spec.sourceNodeName,
		nodeType: spec.nodeType,
		nestedAgent: true,
		invoke: async (input, { signal }): Promise<ToolObservation> => {
			const check = checkArguments(input, spec.schema.zod, spec.schema.parameters);
			if (!check.ok)
				return {
					content: argumentProblemsText(spec.name, check.problems),
					isError: true,
					data: { problems: check.problems },
				};
			const substituted = substituteArguments(
				{ prompt: spec.prompt },
				spec.marked,
				check.args,
			).prompt;
			try {
				const prompt = resolvePrompt(substituted, options.resolveExpression);
				return { content: await options.run(prompt, { args: check.args, signal }), isError: false };
			} catch (error) {
				return { content: errorObservationText(error), isError: true };
			}
		},
	};
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
