import type { INode, INodeParameters } from 'n8n-workflow';
import type { ToolSchema } from '../schema/build-tool-schema';
import type { JsonSchema } from '../schema/json-schema';
import type { CompiledTool, ToolObservation } from './agent-tool';
import { checkArguments } from './coerce-arguments';
import { compileToolSchema } from './compile-tool-schema';
import { groupMarkersByPath, substituteArguments } from './substitute-arguments';
import { argumentProblemsText } from './tool-observation-text';

/** A call's node, or the observation that says why its arguments cannot be used. */
export type FilledNode = { ok: true; node: INode } | { ok: false; observation: ToolObservation };

/** The arguments of a tool made from a node's `$fromAI` markers. */
export interface NodeToolArguments {
	/** The compiled schema: Zod for the checks, the JSON Schema the model gets. */
	schema: ToolSchema;
	/**
	 * The node with a call's arguments (coerced, checked, defaulted) in place of its markers; or,
	 * when they are wrong, the error observation naming each field and what it expects.
	 */
	fill(toolName: string, args: Record<string, unknown>): FilledNode;
	/** What every tool made from the node has but `invoke`: name, description, schema, the node's name and type. */
	toolFields(toolName: string, description: string): Omit<CompiledTool, 'invoke'>;
}

/**
 * Compiles the `$fromAI` markers of `parameters` (the node's, as its tool should see them) once,
 * for every tool made from a node: the bridge's node tools and n8n's AI Agent Tool.
 * @throws ToolBuildError when a `$fromAI` call is malformed or keys conflict.
 */
export function nodeToolArguments(node: INode, parameters: INodeParameters): NodeToolArguments {
	const { schema, markers } = compileToolSchema(node.name, parameters);
	const marked = groupMarkersByPath(markers);
	return {
		schema,
		fill: (toolName, args) => {
			const check = checkArguments(args, schema.zod, schema.parameters);
			if (!check.ok)
				return {
					ok: false,
					observation: {
						content: argumentProblemsText(toolName, check.problems),
						isError: true,
						data: { problems: check.problems },
					},
				};
			const filled = substituteArguments(parameters, marked, check.args) as INodeParameters;
			return { ok: true, node: { ...node, parameters: filled } };
		},
		toolFields: (toolName, description) => ({
			name: toolName,
			description,
			parameters: schema.jsonSchema as unknown as JsonSchema,
			schema,
			sourceNodeName: node.name,
			nodeType: node.type,
		}),
	};
}
