import { findSubNode } from '../sub-nodes/sub-node-tree';
import type { INode, INodeType } from 'n8n-workflow';
import { OutputParserError } from '../../../errors/output-parser-error';
import type { JsonSchema } from '../../../schema/json-schema';
import { isZodSchema, zodToJsonSchema } from '../../../schema/zod-to-json-schema';
import type { ToolSupply } from '../sub-nodes/tool-supply';
import type { WorkflowExport } from '../workflow-file';

/** n8n's output parser node types and what toolbridge calls them in messages. */
export const outputParserNodeTypes = {
	'@n8n/n8n-nodes-langchain.outputParserStructured': 'Structured Output Parser',
	'@n8n/n8n-nodes-langchain.outputParserAutofixing': 'Auto-fixing Output Parser',
	'@n8n/n8n-nodes-langchain.outputParserItemList': 'Item List Output Parser',
} as const;

/** What an output parser node supplied (n8n's N8nStructuredOutputParser, N8nOutputFixingParser, N8nItemListOutputParser), duck-typed. */
interface LangChainOutputParserLike {
	parse(text: string): Promise<unknown>;
	getFormatInstructions(): string;
	getSchema?(): unknown;
}

/** An agent's output parser, supplied by its node's own code. */
export interface WorkflowOutputParser {
	/** The parser node on the agent's `ai_outputParser` input. */
	node: INode;
	/**
	 * The JSON Schema of the answer the parser accepts (its zod schema converted; the Structured
	 * Output Parser's is `{ output: … }` from version 1.2), for the provider's structured-output
	 * mode. Absent for a parser without a schema (Item List): its format instructions are sent instead.
	 */
	schema?: JsonSchema;
	/** The parser's own instructions to the model (`getFormatInstructions`). */
	formatInstructions: string;
	/**
	 * Runs the parser's own `parse` on the answer text: the value, or what it throws (n8n's
	 * NodeOperationError / LangChain's OutputParserException). An Autofixing parser sends a
	 * rejected answer to its own model with its fixing prompt and parses that answer.
	 */
	parse(text: string): Promise<unknown>;
}

/** The first enabled node on the agent's `ai_outputParser` input, if any. */
export function findOutputParserNode(
	workflow: WorkflowExport,
	agentName: string,
): INode | undefined {
	return findSubNode(workflow, agentName, 'ai_outputParser');
}

/**
 * Whether n8n's AI Agent (or AI Agent Tool) uses its output parser: its "Require Specific Output
 * Format" (`hasOutputParser`) when set; unset, n8n reads `true` up to version 1.2 (the option is
 * hidden there, any connected parser is used) and the option's default `false` from 1.3 on.
 */
export function agentUsesOutputParser(agentNode: INode): boolean {
	const value = agentNode.parameters.hasOutputParser;
	if (typeof value === 'boolean') return value;
	return agentNode.typeVersion <= 1.2;
}

/**
 * Runs the parser node's own `supplyData` as the agent's `ai_outputParser` input (in `supply`,
 * whose nodes hold the parser and its sub-nodes: an Autofixing parser's model and inner parser),
 * and reads what it supplied: its schema as JSON Schema, its format instructions, its `parse`.
 *
 * @throws {OutputParserError} `OUTPUT_PARSER_UNAVAILABLE` when the node cannot supply a parser
 * (bad schema, no model for the Autofixing parser, …), naming the agent and the parser.
 */
export async function readOutputParser(
	supply: ToolSupply,
	agentName: string,
	node: INode,
	nodeType: INodeType,
): Promise<WorkflowOutputParser> {
	const unavailable = (reason: string, cause?: unknown): OutputParserError =>
		new OutputParserError(
			'OUTPUT_PARSER_UNAVAILABLE',
			{ agentName, parserName: node.name },
			`The output parser "${node.name}" (${node.type}) of agent "${agentName}" cannot be used: ${reason}.`,
			{ cause },
		);
	let supplied: unknown;
	try {
		supplied = await supply.supplyAs(node, nodeType, 'ai_outputParser');
	} catch (error) {
		throw unavailable((error as Error).message, error);
	}
	if (!isOutputParser(supplied)) throw unavailable('it supplied no output parser');
	const parser = supplied;
	const zodSchema = parser.getSchema?.();
	let schema: JsonSchema | undefined;
	if (isZodSchema(zodSchema)) {
		try {
			schema = zodToJsonSchema(zodSchema);
		} catch (error) {
			throw unavailable(`its schema cannot be read (${(error as Error).message})`, error);
		}
	}
	const result: WorkflowOutputParser = {
		node,
		formatInstructions: parser.getFormatInstructions(),
		parse: async (text) => await parser.parse(text),
	};
	if (schema) result.schema = schema;
	return result;
}

function isOutputParser(value: unknown): value is LangChainOutputParserLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as LangChainOutputParserLike).parse === 'function' &&
		typeof (value as LangChainOutputParserLike).getFormatInstructions === 'function'
	);
}
