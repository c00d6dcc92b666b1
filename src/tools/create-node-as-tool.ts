import { NodeHelpers, type INode, type INodeTypeDescription } from 'n8n-workflow';
import type { CompiledTool, ToolObservation } from './agent-tool';
import { FromAIError } from '../errors/from-ai-error';
import { argumentChecks } from '../errors/invalid-argument-error';
import { ToolBuildError } from '../errors/tool-build-error';
import { buildToolDescription } from '../schema/build-tool-description';
import { toolNameFromNodeName } from '../schema/tool-name-from-node-name';
import { toolBuildProblems, toolDescriptionError } from './compile-tool-schema';
import {
	DEFAULT_MAX_OUTPUT_LENGTH,
	nodeOutputObservation,
	withNodeOutputAttachments,
} from './format-tool-output';
import { truncateText } from './truncate-text';
import type { NodeRunner, NodeRunResult } from './node-runner';
import { nodeToolArguments } from './node-tool-arguments';
import { toNodeRunError } from './to-node-run-error';
import { nodeErrorText } from './tool-observation-text';

/** Options of {@link createNodeAsTool}. */
export interface CreateNodeAsToolOptions {
	/** The node as the workflow holds it (name, type, typeVersion, parameters, credentials). */
	node: INode;
	/** Its node type's description (for this type and version). */
	nodeTypeDescription: INodeTypeDescription;
	/** Runs the node with the substituted parameters. */
	runner: Pick<NodeRunner, 'run'>;
	/** Names the agent's other tools already use; the new name is added to it. */
	takenNames?: Set<string>;
	/** Resolves a manual `toolDescription` written as an expression. */
	resolveExpression?: (expression: string) => unknown;
	/**
	 * Cap on the text of every observation, in characters; longer text is cut with an
	 * `[Output truncated …]` note (and `value` dropped). Default
	 * {@link DEFAULT_MAX_OUTPUT_LENGTH}; `Infinity` for no cap (a caller whose own output
	 * boundary caps, as the agent loop's does).
	 */
	maxOutputLength?: number;
}

/**
 * Turns an n8n node into an {@link AgentTool} whose arguments the model fills through the
 * node's `$fromAI` markers: name unique among `takenNames`, n8n's description rules, the exact
 * JSON Schema (`parameters`) and its Zod twin (`schema`), the node's name and type.
 *
 * Its `invoke` never throws for bad model input or a failing node: arguments are coerced where
 * the intent is clear and validated (defaults applied), substituted into the parameters at
 * the marker spans, the real node runs through `runner`, and the model reads the output
 * items' json (binary described; `value` holds the json when the text is exactly that) or an
 * `Error: …` text naming the field and expected type, or the node's message and details,
 * cut at `maxOutputLength` (default 20000 characters). Secrets are the runner's to redact:
 * the one that holds the credentials (the standalone host's `runnerFor` redacts every secret
 * it hands the workflow's nodes). The call's signal goes to `runner.run`, which cancels the
 * node where the host can; a call whose signal aborted is an error, whatever the node
 * returned. `toLangChainTool` makes a LangChain view of it where one is needed.
 *
 * @throws InvalidArgumentError (INVALID_ARGUMENT) for a `maxOutputLength` that is not a positive number.
 * @throws ToolBuildError when a `$fromAI` call is malformed or keys conflict (node name,
 *   parameter path and position in the message), or the description expression fails.
 */
export function createNodeAsTool(options: CreateNodeAsToolOptions): CompiledTool {
	const { node, nodeTypeDescription, runner } = options;
	const maxOutputLength = options.maxOutputLength ?? DEFAULT_MAX_OUTPUT_LENGTH;
	if (!(typeof maxOutputLength === 'number' && maxOutputLength > 0))
		argumentChecks('createNodeAsTool').fail(
			'options.maxOutputLength',
			'a positive number of characters (Infinity: no cap)',
			maxOutputLength,
		);
	// n8n's `new Workflow()` keeps only declared, displayed parameters; markers in stale
	// hidden parameters would otherwise become phantom tool arguments.
	const parameters =
		NodeHelpers.getNodeParameters(
			nodeTypeDescription.properties,
			node.parameters,
			false,
			false,
			node,
			nodeTypeDescription,
		) ?? {};
	const { fill, toolFields } = nodeToolArguments(node, parameters);
	const name = toolNameFromNodeName(node.name, options.takenNames);
	options.takenNames?.add(name);
	let description: string;
	try {
		description = buildToolDescription({
			node: { name: node.name, parameters },
			nodeTypeDescription: { ...nodeTypeDescription, name: node.type },
			resolveExpression: options.resolveExpression,
		});
	} catch (error) {
		if (error instanceof FromAIError)
			throw new ToolBuildError(toolBuildProblems([error], node.name), { cause: error });
		throw toolDescriptionError(node.name, error);
	}

	/** One call, start to end; never rejects (an unexpected throw becomes an error observation). */
	const call = async (
		args: Record<string, unknown>,
		signal: AbortSignal | undefined,
	): Promise<ToolObservation> => {
		try {
			const filled = fill(name, args);
			if (!filled.ok) return filled.observation;
			// A call cancelled before it starts never runs the node.
			if (signal?.aborted)
				return {
					content: `Error: the call of ${name} was cancelled before the node ran.`,
					isError: true,
					data: { cancelled: true },
				};
			let result: NodeRunResult;
			try {
				result = await runner.run(filled.node, {}, signal ? { signal } : {});
			} catch (error) {
				result = { items: [], error: toNodeRunError(error) };
			}
			if (result.error)
				return {
					content: nodeErrorText(node.name, result.error),
					isError: true,
					data: { error: result.error },
				};
			// A runner may still return the node's output after the cancel (n8n's Wait node resolves on cancellation): never a result.
			if (signal?.aborted)
				return {
					content: `Error: the call of ${name} was cancelled before node "${node.name}" finished.`,
					isError: true,
					data: { cancelled: true },
				};
			return await withNodeOutputAttachments(nodeOutputObservation(result.items), result.items);
		} catch (error) {
			return { content: `Error: ${(error as Error).message}`, isError: true };
		}
	};

	return {
		...toolFields(name, description),
		invoke:
			maxOutputLength === Infinity
				? (args, invokeOptions) => call(args, invokeOptions?.signal)
				: async (args, invokeOptions) =>
						capObservation(await call(args, invokeOptions?.signal), maxOutputLength),
	};
}

/** The observation with its text cut at `maxLength`; a cut text keeps no `value` (it would say more than the text). */
function capObservation(observation: ToolObservation, maxLength: number): ToolObservation {
	const content = truncateText(observation.content, maxLength);
	if (content === observation.content) return observation;
	const { value: _dropped, ...rest } = observation;
	return { ...rest, content };
}
