import type {
	IDataObject,
	IExecuteFunctions,
	ISupplyDataFunctions,
	SupplyData,
} from 'n8n-workflow';
import { createNestedAgentTool } from '../../../tools/create-nested-agent-tool';
import { nestedAgentToolSpec } from '../../../tools/nested-agent-tool-spec';
import { toLangChainTool } from '../../../tools/langchain-tool-view';
import { runAgentNodeItem, type RunAgentNodeItemOptions } from './run-agent-node-item';

/**
 * `supplyData` of an AgentOrchestrator in nested mode: the tool its parent agent (ours or
 * n8n's AI Agent) connects to. Built by our compiler from the node's own parameters (see
 * `nestedAgentToolSpec`). A call runs this node's full loop with its own tools, memory and
 * credential, inside the caller's agent chain (depth limit, cycle check, abort, usage and
 * debug lines roll up), logs the call as a run of this node in n8n's execution view, and
 * returns the final answer as plain text.
 *
 * @throws {ToolBuildError} when the prompt's `$fromAI` calls are malformed.
 */
export async function supplyNestedAgentTool(
	context: ISupplyDataFunctions,
	itemIndex: number,
	options: RunAgentNodeItemOptions = {},
): Promise<SupplyData> {
	const node = context.getNode();
	const description = context.getNodeParameter('toolDescription', itemIndex, '') as string;
	const spec = nestedAgentToolSpec(node, {
		description: typeof description === 'string' ? description : '',
	});
	const tool = createNestedAgentTool({
		spec,
		resolveExpression: (expression) => context.evaluateExpression(expression, itemIndex),
		run: async (prompt, { args, signal }) => {
			const logged =
				typeof context.addInputData === 'function'
					? context.addInputData('ai_tool', [[{ json: args as IDataObject }]])
					: undefined;
			try {
				const item = await runAgentNodeItem(
					nestedRunContext(context, prompt, signal),
					itemIndex,
					options,
				);
				const output =
					typeof item.json.output === 'string'
						? item.json.output
						: JSON.stringify(item.json.output);
				if (logged)
					context.addOutputData('ai_tool', logged.index, [[{ json: { response: output } }]]);
				return output;
			} catch (error) {
				if (logged) context.addOutputData('ai_tool', logged.index, error as never);
				throw error;
			}
		},
	});
	// n8n's agents call a LangChain tool; a failed run throws, as n8n's own tools do.
	return { response: toLangChainTool(tool, { onError: 'throw' }) };
}

/**
 * The context one nested run reads: this node's parameters with the prompt the caller
 * filled in, its credential, tools and memory; no streaming into the parent's stream; the
 * execution's cancel signal combined with the caller's.
 */
function nestedRunContext(
	context: ISupplyDataFunctions,
	prompt: string,
	signal: AbortSignal | undefined,
): IExecuteFunctions {
	const own = context.getExecutionCancelSignal?.();
	const signals = [own, signal].filter((entry): entry is AbortSignal => entry !== undefined);
	const combined = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
	const view: Partial<IExecuteFunctions> = {
		getNode: () => context.getNode(),
		getWorkflow: () => context.getWorkflow(),
		getNodeParameter: ((
			name: string,
			itemIndex: number,
			fallback?: unknown,
			parameterOptions?: unknown,
		) =>
			name === 'prompt'
				? prompt
				: context.getNodeParameter(
						name,
						itemIndex,
						fallback as never,
						parameterOptions as never,
					)) as IExecuteFunctions['getNodeParameter'],
		getCredentials: ((type: string, itemIndex?: number) =>
			context.getCredentials(type, itemIndex)) as IExecuteFunctions['getCredentials'],
		getInputConnectionData: ((type: never, itemIndex: number) =>
			context.getInputConnectionData(
				type,
				itemIndex,
			)) as IExecuteFunctions['getInputConnectionData'],
		getExecutionCancelSignal: () => combined,
		isStreaming: () => false,
		sendChunk: () => undefined,
		logger: context.logger,
		continueOnFail: () => false,
	};
	return view as IExecuteFunctions;
}
