import { isZodSchema, zodToJsonSchema } from '../schema/zod-to-json-schema';
import type { JsonSchema } from '../schema/json-schema';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import type { AgentTool, ToolObservation } from './agent-tool';
import { parseJsonText } from './parse-json-text';
import { errorObservationText } from './tool-observation-text';

/**
 * The part of a LangChain tool this adapter uses. Duck-typed on purpose: n8n may hand
 * us tools made with another copy of @langchain/core, where `instanceof` fails.
 */
export interface LangChainToolLike {
	name: string;
	description?: string;
	schema?: unknown;
	metadata?: Record<string, unknown>;
	invoke(input: unknown, config?: Record<string, unknown>): Promise<unknown>;
}

/** True for anything that looks like a LangChain tool (name + invoke). */
export function isLangChainToolLike(value: unknown): value is LangChainToolLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as { name?: unknown }).name === 'string' &&
		typeof (value as { invoke?: unknown }).invoke === 'function'
	);
}

const emptyObjectSchema: JsonSchema = { type: 'object', properties: {} };

/**
 * Adapts a LangChain structured tool (n8n's node tools, toolkits' tools, our bridge's
 * tools) to an AgentTool. The JSON Schema comes from `metadata.toolbridge.jsonSchema`
 * when the bridge set it, else from the zod schema, else from a plain JSON Schema
 * object. `invoke` never throws: errors, including the tool's own argument validation,
 * become observations with `isError: true`.
 *
 * @throws {AgentConfigurationError} when the value is not a tool.
 */
export function agentToolFromLangChain(tool: unknown): AgentTool {
	if (!isLangChainToolLike(tool)) {
		throw new AgentConfigurationError(
			'tools',
			'A connected tool is not a LangChain tool (it needs a name and an invoke method).',
		);
	}
	const metadata = tool.metadata ?? {};
	const toolbridge = metadata.toolbridge as
		{ jsonSchema?: JsonSchema; nodeType?: string } | undefined;
	const agentTool: AgentTool = {
		name: tool.name,
		description: tool.description ?? '',
		parameters: toolbridge?.jsonSchema ?? schemaOf(tool.schema),
		invoke: async (args, options) => {
			try {
				const output = await tool.invoke(args, {
					signal: options.signal,
					metadata: { toolCallId: options.toolCallId },
				});
				return observationOf(output);
			} catch (error) {
				return { content: errorObservationText(error), isError: true };
			}
		},
	};
	if (typeof metadata.sourceNodeName === 'string')
		agentTool.sourceNodeName = metadata.sourceNodeName;
	if (typeof toolbridge?.nodeType === 'string') agentTool.nodeType = toolbridge.nodeType;
	return agentTool;
}

/**
 * Flattens what n8n's `getInputConnectionData('ai_tool', …)` gives (a tool, an array, or
 * toolkits holding tools) into a list of LangChain tools.
 */
export function flattenConnectedTools(value: unknown): unknown[] {
	const entries =
		value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
	return entries.flatMap((entry: unknown): unknown[] => {
		if (isLangChainToolLike(entry)) return [entry];
		if (typeof entry === 'object' && entry !== null) {
			const toolkit = entry as { tools?: unknown; getTools?: () => unknown };
			if (Array.isArray(toolkit.tools)) return toolkit.tools;
			if (typeof toolkit.getTools === 'function') return flattenConnectedTools(toolkit.getTools());
		}
		return [entry];
	});
}

function schemaOf(schema: unknown): JsonSchema {
	if (schema === undefined || schema === null) return emptyObjectSchema;
	if (isZodSchema(schema)) return zodToJsonSchema(schema);
	if (typeof schema === 'object') return schema as JsonSchema;
	return emptyObjectSchema;
}

/** The observation, made once: the text, and the JSON value when the text is (or is made from) one. */
function observationOf(output: unknown): ToolObservation {
	const content = contentText(output);
	const observation: ToolObservation = {
		content,
		// n8n's in-process tool wrapper reports a cancelled run or binary output as a string;
		// n8n's LangChain tool nodes (Code Tool, Call n8n Workflow Tool, HTTP Request Tool …)
		// answer a failure with `There was an error: "…"` (the HTTP Request Tool with `HTTP 503 ` first).
		isError: /^(Error( during node execution)?:|(HTTP \d{3} )?There was an error: ")/.test(content),
	};
	if (observation.isError) return observation;
	const value =
		typeof output === 'object' && output !== null && !isMessageLike(output) && !isTextBlocks(output)
			? output
			: parseJsonText(content);
	if (value !== undefined) {
		observation.data = value;
		observation.value = value;
	}
	return observation;
}

function contentText(output: unknown): string {
	if (typeof output === 'string') return output;
	if (output === undefined || output === null) return '';
	// Content blocks (n8n's vector stores used as tools answer `[{ type: 'text', text }]`): n8n's
	// agent puts them into the tool message as they are, and the model reads their text.
	if (isTextBlocks(output)) return output.map((block) => block.text).join('\n');
	if (typeof output === 'object' && 'content' in output && isMessageLike(output)) {
		const content = (output as { content: unknown }).content;
		if (typeof content === 'string') return content;
		if (Array.isArray(content)) {
			return content
				.map((part) =>
					typeof part === 'string'
						? part
						: ((part as { text?: string }).text ?? JSON.stringify(part)),
				)
				.join('');
		}
	}
	return JSON.stringify(output) ?? String(output);
}

function isTextBlocks(value: unknown): value is Array<{ type: 'text'; text: string }> {
	return (
		Array.isArray(value) &&
		value.length > 0 &&
		value.every(
			(block) =>
				typeof block === 'object' &&
				block !== null &&
				(block as { type?: unknown }).type === 'text' &&
				typeof (block as { text?: unknown }).text === 'string',
		)
	);
}

function isMessageLike(value: object): boolean {
	const candidate = value as {
		_getType?: unknown;
		getType?: unknown;
		type?: unknown;
		lc_kwargs?: unknown;
	};
	return (
		typeof candidate._getType === 'function' ||
		typeof candidate.getType === 'function' ||
		candidate.lc_kwargs !== undefined
	);
}
