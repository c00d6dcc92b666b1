import type { INode } from 'n8n-workflow';
import type { AgentTool, ToolObservation } from '../../../tools/agent-tool';
import {
	agentToolFromLangChain,
	type LangChainToolLike,
} from '../../../tools/agent-tool-from-langchain';
import { nodeErrorText } from '../../../tools/tool-observation-text';
import { toNodeRunError } from '../../../tools/to-node-run-error';
import { containNodeRun } from '../node-run-containment';
import type { NodeRunGuard } from '../standalone-host';
import { withCallSignal } from '../sub-workflows/call-signal';
import type { WorkflowExport } from '../workflow-file';

/** Options of {@link suppliedAgentTool}. */
export interface SuppliedAgentToolOptions {
	/** The tool node that supplied it. */
	node: INode;
	/** The export the node belongs to (what the guard is told). */
	workflow: WorkflowExport;
	/** Stands around each call, as around every node run of the session (e.g. the private-network guard). */
	guard?: NodeRunGuard;
}

/**
 * An n8n LangChain tool (what a tool node's `supplyData` gave) as an {@link AgentTool}: its
 * name, description and JSON Schema exactly as n8n's AI Agent hands them to the model
 * (`agentToolFromLangChain`), its node's name and type, and a call that runs n8n's own tool
 * in-process (`tool.invoke`, as n8n's AI Agent up to 2.x and the MCP Server Trigger call it)
 * through the session's guard. A call never throws: failures are `isError` observations.
 */
export function suppliedAgentTool(
	tool: LangChainToolLike,
	options: SuppliedAgentToolOptions,
): AgentTool {
	const { node, workflow, guard } = options;
	// n8n's tool answers its own failures as text; what it throws is told with the node's name.
	const langChain = agentToolFromLangChain({
		name: tool.name,
		description: tool.description,
		schema: tool.schema,
		metadata: tool.metadata,
		invoke: async (input: unknown, config?: Record<string, unknown>) => {
			try {
				// What the node's client library throws outside this call ends the call, not the process.
				return await containNodeRun(node, () => tool.invoke(input, config));
			} catch (error) {
				throw new Error(thrownErrorText(node, error).replace(/^Error: /, ''));
			}
		},
	});
	// The call's signal reaches sub-workflows the tool starts (n8n's tool code does not pass it on).
	const adapted: AgentTool = {
		...langChain,
		invoke: (args, invokeOptions) =>
			withCallSignal(invokeOptions.signal, () => langChain.invoke(args, invokeOptions)),
	};
	const agentTool: AgentTool = { ...adapted, sourceNodeName: node.name, nodeType: node.type };
	if (!guard) return agentTool;
	return {
		...agentTool,
		invoke: async (args, invokeOptions) => {
			let observation: ToolObservation | undefined;
			const result = await guard({ workflow, node }, async () => {
				observation = await adapted.invoke(args, invokeOptions);
				return { items: [] };
			});
			if (result.error)
				return {
					content: nodeErrorText(node.name, result.error),
					isError: true,
					data: { error: result.error },
				};
			return (
				observation ?? {
					content: `Error: the call of ${agentTool.name} was stopped before it ran.`,
					isError: true,
				}
			);
		},
	};
}

/**
 * What the model reads when n8n's tool throws (its own failures it answers as text): the node,
 * the message with its cause (`fetch failed` says little without `connect ECONNREFUSED …`) and
 * n8n's description.
 */
function thrownErrorText(node: INode, error: unknown): string {
	const runError = toNodeRunError(error);
	// `fetch failed` says little without what failed: add the first cause that says more.
	for (
		let cause = (error as { cause?: unknown } | null)?.cause;
		typeof cause === 'object' && cause !== null;
		cause = (cause as { cause?: unknown }).cause
	) {
		const message = (cause as { message?: unknown }).message;
		if (typeof message === 'string' && message !== '' && !runError.message.includes(message)) {
			runError.message = `${runError.message} (${message})`;
			break;
		}
	}
	return nodeErrorText(node.name, runError);
}
