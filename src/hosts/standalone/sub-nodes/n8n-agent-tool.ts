import type { INode } from 'n8n-workflow';
import type { CompiledTool, ToolObservation } from '../../../tools/agent-tool';
import { nodeNameToN8nToolName } from '../../../schema/tool-name-from-node-name';
import { toolDescriptionError } from '../../../tools/compile-tool-schema';
import { nodeToolArguments } from '../../../tools/node-tool-arguments';
import { errorObservationText } from '../../../tools/tool-observation-text';

/** n8n's AI Agent Tool node type (an AI Agent used as another agent's tool). */
export const n8nAgentToolNodeType = '@n8n/n8n-nodes-langchain.agentTool';

/** n8n's default description of an AI Agent Tool (its `toolDescription` default). */
const n8nDefaultAgentToolDescription = 'AI Agent that can call other tools';

/** Options of {@link createN8nAgentTool}. */
export interface N8nAgentToolOptions {
	node: INode;
	/** Resolves a `toolDescription` written as an expression. */
	resolveExpression: (expression: string) => unknown;
	/**
	 * Runs the agent node (its `$fromAI` markers already filled with the calling model's
	 * arguments) on our loop — its prompt, system message, model sub-node and tools — and
	 * resolves with its answer.
	 */
	run: (node: INode, options: { signal?: AbortSignal }) => Promise<string>;
}

/**
 * n8n's AI Agent Tool as a tool of its parent agent, run on this package's loop: the name
 * (`nodeNameToToolName`), description (`toolDescription`) and arguments (its `$fromAI` markers,
 * anywhere in its parameters) n8n-core's `createNodeAsTool` gives it; a call fills the markers,
 * runs the agent with its own model and tools, and answers what n8n's tool answers:
 * `[{"output":"…"}]`.
 *
 * @throws {ToolBuildError} when a `$fromAI` call is malformed or the description expression fails.
 */
export function createN8nAgentTool(options: N8nAgentToolOptions): CompiledTool {
	const { node } = options;
	const parameters = node.parameters;
	const { fill, toolFields } = nodeToolArguments(node, parameters);
	const name = nodeNameToN8nToolName(node.name) || 'agentTool';
	let description = n8nDefaultAgentToolDescription;
	const written = parameters.toolDescription;
	if (typeof written === 'string' && written.trim() !== '') {
		try {
			description = written.startsWith('=')
				? String(options.resolveExpression(written) ?? '')
				: written.trim();
		} catch (error) {
			throw toolDescriptionError(node.name, error);
		}
	}
	return {
		...toolFields(name, description),
		nestedAgent: true,
		invoke: async (input, { signal }): Promise<ToolObservation> => {
			const filled = fill(name, input);
			if (!filled.ok) return filled.observation;
			try {
				const value = [{ output: await options.run(filled.node, { signal }) }];
				return { content: JSON.stringify(value), isError: false, data: value, value };
			} catch (error) {
				return { content: errorObservationText(error), isError: true };
			}
		},
	};
}
