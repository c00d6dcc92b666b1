import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { JsonSchema } from '../schema/json-schema';
import type { AgentTool, CompiledTool } from './agent-tool';
import { checkArguments } from './coerce-arguments';
import { DEFAULT_MAX_OUTPUT_LENGTH } from './format-tool-output';
import { argumentProblemsText } from './tool-observation-text';
import { truncateText } from './truncate-text';

/** What `metadata.toolbridge` of a LangChain view holds. */
export interface BridgeToolMetadata {
	/** The exact JSON Schema of the arguments, as the model should receive it. */
	jsonSchema: JsonSchema;
	nodeType?: string;
	/** Set for a nested agent (n8n's engine reads its run's usage back). */
	nestedAgent?: true;
}

/** Options of {@link toLangChainTool}. */
export interface LangChainToolViewOptions {
	/** Cap on the text the view returns (it is the reader's only boundary). Default {@link DEFAULT_MAX_OUTPUT_LENGTH}. */
	maxOutputLength?: number;
	/**
	 * `text` (default): a failed call returns its `Error: …` text, as n8n's node tools do.
	 * `throw`: it throws an error with that message, as a nested agent's tool does for n8n.
	 */
	onError?: 'text' | 'throw';
}

/** A failed call of a tool whose LangChain view throws (`onError: 'throw'`). */
class ToolCallFailedError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ToolCallFailedError';
	}
}

interface ToolCallLike {
	type: 'tool_call';
	id?: string;
	args: unknown;
}

function isToolCall(value: unknown): value is ToolCallLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		(value as { type?: unknown }).type === 'tool_call'
	);
}

/**
 * A LangChain `DynamicStructuredTool` view of an {@link AgentTool}, for what needs
 * one (n8n's `supplyData`, LangChain agents): its schema is the plain JSON Schema (n8n's agent
 * passes a non-Zod schema through as JSON Schema, so the model gets real properties whichever
 * zod copy is loaded), `metadata` carries `sourceNodeName` and `toolbridge`. A call runs the
 * tool's own `invoke` and returns its text, capped.
 *
 * LangChain checks a JSON Schema tool's input strictly before `func` runs and would throw a
 * `ToolInputParsingException` (which ends n8n agent runs) for `"20"` where a number is due.
 * So the input of a tool this package compiled (a {@link CompiledTool}) is checked first with
 * its own lenient check: input it can coerce goes on coerced; input it cannot answers, like
 * `func` would, with the text naming each field. A tool n8n supplied checks its own input.
 */
export function toLangChainTool(
	tool: AgentTool | CompiledTool,
	options: LangChainToolViewOptions = {},
): DynamicStructuredTool {
	const maxOutputLength = options.maxOutputLength ?? DEFAULT_MAX_OUTPUT_LENGTH;
	const metadata: BridgeToolMetadata = { jsonSchema: tool.parameters };
	if (tool.nodeType !== undefined) metadata.nodeType = tool.nodeType;
	if (tool.nestedAgent) metadata.nestedAgent = true;
	const view = new DynamicStructuredTool({
		name: tool.name,
		description: tool.description,
		schema: tool.parameters as Record<string, unknown>,
		func: async (
			input: unknown,
			_runManager?: unknown,
			config?: { signal?: AbortSignal; toolCall?: { id?: string } },
		) => {
			const observation = await tool.invoke(input as Record<string, unknown>, {
				toolCallId: config?.toolCall?.id ?? `langchain-${tool.name}`,
				signal: config?.signal,
			});
			const text = truncateText(observation.content, maxOutputLength);
			if (observation.isError && options.onError === 'throw')
				throw new ToolCallFailedError(text.replace(/^Error: /, ''));
			return text;
		},
		metadata: { sourceNodeName: tool.sourceNodeName, toolbridge: metadata },
	});
	// A tool n8n supplied (no schema of ours) checks its own input.
	if (!('schema' in tool)) return view;
	const call = view.call.bind(view);
	view.call = (async (arg: unknown, configArg?: unknown, ...rest: unknown[]) => {
		// `invoke` passes a tool call's args here and the call itself as `config.toolCall`.
		const toolCall = isToolCall(arg)
			? arg
			: (configArg as { toolCall?: ToolCallLike } | undefined)?.toolCall;
		const input = isToolCall(arg) ? arg.args : arg;
		const check = checkArguments(input, tool.schema.zod, tool.schema.parameters);
		if (check.ok)
			return call(
				(isToolCall(arg) ? { ...arg, args: check.args } : check.args) as never,
				configArg as never,
				...(rest as []),
			);
		const text = argumentProblemsText(tool.name, check.problems);
		if (options.onError === 'throw') throw new ToolCallFailedError(text.replace(/^Error: /, ''));
		return toolCall?.id
			? new ToolMessage({ content: text, tool_call_id: toolCall.id, name: tool.name })
			: text;
	}) as typeof view.call;
	return view;
}
