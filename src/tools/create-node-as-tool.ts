import { DynamicStructuredTool } from '@langchain/core/tools';
import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeTypeDescription,
} from 'n8n-workflow';
import type { AgentTool, ToolObservation } from './agent-tool';
import type { JsonSchema } from '../schema/json-schema';
import { FromAIError } from '../errors/from-ai-error';
import { ToolBuildError } from '../errors/tool-build-error';
import { ToolbridgeError } from '../errors/toolbridge-error';
import { buildToolDescription } from '../schema/build-tool-description';
import { toolNameFromNodeName } from '../schema/tool-name-from-node-name';
import { checkArguments } from './coerce-arguments';
import { compileToolSchema, toolBuildProblems, toolDescriptionError } from './compile-tool-schema';
import { DEFAULT_MAX_OUTPUT_LENGTH, formatToolOutput } from './format-tool-output';
import type { NodeRunner, NodeRunResult } from './node-runner';
import { groupMarkersByPath, substituteArguments } from './substitute-arguments';
import { toNodeRunError } from './to-node-run-error';
import { truncateText } from './truncate-text';
import { argumentProblemsText, nodeErrorText } from './tool-observation-text';

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
	/** Cap on the text handed to the model, output and errors alike. Default {@link DEFAULT_MAX_OUTPUT_LENGTH}. */
	maxOutputLength?: number;
}

/** What `metadata.toolbridge` of a bridge tool holds. */
export interface BridgeToolMetadata {
	/** The exact JSON Schema of the arguments, as the model should receive it. */
	jsonSchema: JsonSchema;
	nodeType: string;
}

/**
 * The schema's `.catch` value: LangChain parses arguments against the tool schema BEFORE
 * `func` runs and throws `ToolInputParsingException` on a mismatch (which kills n8n agent
 * runs). The catch turns a mismatch into this wrapper, so `func` sees the raw input and can
 * coerce it or answer with an observation, while the schema the model sees stays typed.
 */
class UnparsedToolArguments {
	constructor(readonly input: unknown) {}
}

const observers = new WeakMap<
	object,
	(input: unknown, signal?: AbortSignal) => Promise<ToolObservation>
>();

/**
 * Turns an n8n node into a LangChain `DynamicStructuredTool` whose arguments the model fills
 * through the node's `$fromAI` markers: name unique among `takenNames`, n8n's description
 * rules, a typed Zod schema (and the exact JSON Schema in `metadata.toolbridge.jsonSchema`),
 * `metadata.sourceNodeName`.
 *
 * Its `func` never throws for bad model input or a failing node: arguments are coerced where
 * the intent is clear and validated (defaults applied), substituted into the parameters at
 * the marker spans, the real node runs through `runner`, and the model reads the output
 * items' json (binary described) or an `Error: …` text naming the field and expected type,
 * or the node's message and details — any of them cut at `maxOutputLength`. The same call as
 * an {@link ToolObservation} is available through `toAgentTool`. The call's signal (LangChain's
 * `config.signal`, or the AgentTool's invoke option) goes to `runner.run`, which cancels the
 * node where the host can; a call whose signal aborted is an error, whatever the node returned.
 *
 * @throws ToolBuildError when a `$fromAI` call is malformed or keys conflict (node name,
 *   parameter path and position in the message), or the description expression fails.
 */
export function createNodeAsTool(options: CreateNodeAsToolOptions): DynamicStructuredTool {
	const { node, nodeTypeDescription, runner } = options;
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
	const { schema, markers } = compileToolSchema(node.name, parameters);
	const marked = groupMarkersByPath(markers);
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
	const maxOutputLength = options.maxOutputLength ?? DEFAULT_MAX_OUTPUT_LENGTH;

	const observe = async (input: unknown, signal?: AbortSignal): Promise<ToolObservation> => {
		const raw = input instanceof UnparsedToolArguments ? input.input : input;
		const check = checkArguments(raw, schema.zod, schema.parameters);
		if (!check.ok)
			return {
				content: truncateText(argumentProblemsText(name, check.problems), maxOutputLength),
				isError: true,
				data: { problems: check.problems },
			};
		// A call cancelled before it starts never runs the node.
		if (signal?.aborted)
			return {
				content: `Error: the call of ${name} was cancelled before the node ran.`,
				isError: true,
				data: { cancelled: true },
			};
		let result: NodeRunResult;
		try {
			result = await runner.run(
				{
					...node,
					parameters: substituteArguments(parameters, marked, check.args) as INodeParameters,
				},
				{},
				{ signal },
			);
		} catch (error) {
			result = { items: [], error: toNodeRunError(error) };
		}
		if (result.error)
			return {
				content: truncateText(nodeErrorText(node.name, result.error), maxOutputLength),
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
		return {
			content: formatToolOutput(result.items, maxOutputLength),
			isError: false,
			data: result.items.map((item) => item.json),
		};
	};

	const metadata: BridgeToolMetadata = {
		jsonSchema: schema.jsonSchema as unknown as JsonSchema,
		nodeType: node.type,
	};
	const tool = new DynamicStructuredTool({
		name,
		description,
		schema: schema.zod.catch(
			(context: { input: unknown }) => new UnparsedToolArguments(context.input) as never,
		),
		func: async (input: unknown, _runManager?: unknown, config?: { signal?: AbortSignal }) =>
			(await observe(input, config?.signal)).content,
		metadata: { sourceNodeName: node.name, toolbridge: metadata },
	});
	observers.set(tool, observe);
	return tool;
}

/**
 * The {@link AgentTool} view of a tool made by {@link createNodeAsTool}: same name, the exact
 * JSON Schema, and an `invoke` that returns the observation (with `isError` and the output
 * items' json as `data`) instead of a string. Never throws from `invoke`.
 *
 * @throws ToolbridgeError (TOOL_NOT_BRIDGED) when the tool was not made by createNodeAsTool.
 */
export function toAgentTool(tool: DynamicStructuredTool): AgentTool {
	const observe = observers.get(tool);
	if (!observe)
		throw new ToolbridgeError(
			'TOOL_NOT_BRIDGED',
			`Tool "${tool.name}" was not made by createNodeAsTool; use agentToolFromLangChain for other tools.`,
		);
	const metadata = tool.metadata as { sourceNodeName: string; toolbridge: BridgeToolMetadata };
	return {
		name: tool.name,
		description: tool.description,
		parameters: metadata.toolbridge.jsonSchema,
		sourceNodeName: metadata.sourceNodeName,
		invoke: async (args, options) => {
			try {
				return await observe(args, options?.signal);
			} catch (error) {
				return { content: `Error: ${(error as Error).message}`, isError: true };
			}
		},
	};
}
