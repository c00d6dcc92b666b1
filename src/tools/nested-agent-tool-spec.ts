import type { JsonSchema } from '../schema/json-schema';
import type { ToolSchema } from '../schema/build-tool-schema';
import { nodeNameToN8nToolName } from '../schema/tool-name-from-node-name';
import { compileToolSchema } from './compile-tool-schema';
import { groupMarkersByPath, type MarkedParameter } from './substitute-arguments';

/** The prompt a nested agent starts with: one `task` argument filled by the calling model. */
export const defaultNestedPrompt = "={{ $fromAI('task', 'The task for this agent', 'string') }}";

/** The node type name of the AgentOrchestrator, without its package prefix. */
const agentNodeTypeSuffix = '.agentOrchestrator';

/** The parts of a workflow node the spec is built from. */
export interface NestedAgentNodeLike {
	name: string;
	type?: string;
	parameters?: Record<string, unknown>;
}

/** A nested agent as a tool: what the calling model is told, and how its arguments fill the prompt. */
export interface NestedAgentToolSpec {
	/** n8n's tool name for the node (`nodeNameToToolName`): n8n's agent maps engine results back by it. */
	name: string;
	description: string;
	/** JSON Schema of the arguments (from the prompt's `$fromAI` markers). */
	parameters: JsonSchema;
	schema: ToolSchema;
	/** The prompt parameter as written (an expression with markers, or plain text). */
	prompt: string;
	/** The prompt's markers, grouped for substitution. */
	marked: MarkedParameter[];
	sourceNodeName: string;
	/** The node's type (the AgentOrchestrator's, with its package prefix). */
	nodeType: string;
}

/** True for an AgentOrchestrator node whose mode is `nested` (it is a tool of its parent). */
export function isNestedAgentNode(node: NestedAgentNodeLike): boolean {
	return (
		typeof node.type === 'string' &&
		node.type.endsWith(agentNodeTypeSuffix) &&
		node.parameters?.mode === 'nested'
	);
}

/**
 * Builds the tool a nested AgentOrchestrator offers its parent, from the node alone (no
 * n8n context needed, so the standalone host and `toolbridge tools` can use it): name by
 * n8n's rule, description from `toolDescription` (pass `description` when it is an
 * expression you resolved), arguments from the `$fromAI` markers of the prompt (default
 * {@link defaultNestedPrompt}).
 *
 * @throws {ToolBuildError} when a `$fromAI` call in the prompt is malformed or keys conflict.
 */
export function nestedAgentToolSpec(
	node: NestedAgentNodeLike,
	options: { description?: string } = {},
): NestedAgentToolSpec {
	const parameters = node.parameters ?? {};
	const prompt = typeof parameters.prompt === 'string' ? parameters.prompt : defaultNestedPrompt;
	const { schema, markers } = compileToolSchema(node.name, { prompt });
	const written =
		options.description ??
		(typeof parameters.toolDescription === 'string' ? parameters.toolDescription : '');
	const description =
		written.trim() !== ''
			? written.trim()
			: `Runs the agent "${node.name}" on a task and returns its final answer as text.`;
	return {
		name: nodeNameToN8nToolName(node.name) || 'agent',
		description,
		parameters: schema.jsonSchema as unknown as JsonSchema,
		schema,
		prompt,
		marked: groupMarkersByPath(markers),
		sourceNodeName: node.name,
		nodeType: node.type ?? `n8n-nodes-toolbridge${agentNodeTypeSuffix}`,
	};
}
