import type { DynamicStructuredTool } from '@langchain/core/tools';
import type { INode } from 'n8n-workflow';
import type { AgentTool } from '../../../agent/agent-tool';
import { ToolBuildError, type ToolBuildProblem } from '../../../errors/tool-build-error';
import { WorkflowFileError } from '../../../errors/workflow-file-error';
import { createNodeAsTool, toAgentTool } from '../../create-node-as-tool';
import { StandaloneHost, type StandaloneHostOptions } from './standalone-host';
import { findToolNodes, parseWorkflow, readWorkflowFile, selectAgent, type WorkflowExport } from './workflow-file';

/** Options of {@link loadWorkflowTools}. */
export interface LoadWorkflowToolsOptions extends StandaloneHostOptions {
	/** The agent node's name when several nodes have tools connected. */
	agent?: string;
	/** Reuse a host (loaded packages and credentials) across workflows. */
	host?: StandaloneHost;
	/**
	 * `throw` (default): one malformed `$fromAI` anywhere fails the load with a
	 * ToolBuildError listing every problem. `collect`: tools that build are returned and the
	 * problems listed in `problems` (what `toolbridge tools` shows).
	 */
	onBuildError?: 'throw' | 'collect';
	/** Cap on the text each tool hands the model. */
	maxOutputLength?: number;
}

/** The agent of a workflow and its tools, ready for an agent loop. */
export interface WorkflowTools {
	agentNode: INode;
	/** The tools as the agent loop uses them (observations, exact JSON Schema). */
	tools: AgentTool[];
	/** The same tools as LangChain `DynamicStructuredTool`s, in the same order. */
	langChainTools: DynamicStructuredTool[];
	/** `$fromAI` problems of nodes left out (only with `onBuildError: 'collect'`). */
	problems: ToolBuildProblem[];
	host: StandaloneHost;
	workflow: WorkflowExport;
}

/**
 * Loads an n8n workflow export (a file path, JSON text or the parsed object), finds its agent
 * (the target of `ai_tool` connections) and turns every enabled node connected to the agent's
 * `ai_tool` input into a tool that runs the real node through n8n-core.
 *
 * @throws WorkflowFileError when the input is not a workflow export.
 * @throws AgentNotFoundError when there is no agent, or several and `agent` is not set.
 * @throws NodeTypeNotFoundError when a tool node's type is not installed.
 * @throws ToolBuildError on `$fromAI` problems (unless `onBuildError: 'collect'`).
 */
export async function loadWorkflowTools(workflowInput: string | object, options: LoadWorkflowToolsOptions = {}): Promise<WorkflowTools> {
	const workflow = readWorkflowInput(workflowInput);
	const agentNode = selectAgent(workflow, options.agent);
	const host = options.host ?? (await StandaloneHost.create(options));
	const runner = host.runnerFor(workflow);
	const takenNames = new Set<string>();
	const langChainTools: DynamicStructuredTool[] = [];
	const problems: ToolBuildProblem[] = [];
	for (const node of findToolNodes(workflow, agentNode.name)) {
		const nodeTypeDescription = host.describe(node);
		try {
			langChainTools.push(
				createNodeAsTool({
					node,
					nodeTypeDescription,
					runner,
					takenNames,
					resolveExpression: (expression) => host.resolveExpression(workflow, node, expression),
					maxOutputLength: options.maxOutputLength,
				}),
			);
		} catch (error) {
			if (!(error instanceof ToolBuildError)) throw error;
			problems.push(...error.problems);
		}
	}
	if (problems.length > 0 && options.onBuildError !== 'collect') throw new ToolBuildError(problems);
	return { agentNode, tools: langChainTools.map(toAgentTool), langChainTools, problems, host, workflow };
}

function readWorkflowInput(input: string | object): WorkflowExport {
	if (typeof input !== 'string') return parseWorkflow(input);
	if (input.trimStart().startsWith('{')) {
		let value: unknown;
		try {
			value = JSON.parse(input);
		} catch (error) {
			throw new WorkflowFileError(`Workflow JSON text is not valid JSON: ${(error as Error).message}.`, { cause: error });
		}
		return parseWorkflow(value, 'Workflow JSON text');
	}
	return readWorkflowFile(input);
}
