/**
 * The reference the sub-node tool tests compare against: what n8n's own AI Agent (ToolsAgent,
 * the default agent since 1.6) gets from its `ai_tool` input and hands to the model — n8n-core's
 * `ExecuteContext.getInputConnectionData` for the agent node, then the LangChain package's
 * `getConnectedTools(ctx, true, false)` (exactly ToolsAgent's call), then `@langchain/core`'s
 * `convertToOpenAITool` (what `ChatOpenAI.bindTools` sends). Nothing of this package's tool code
 * runs here.
 *
 * n8n's own Agent class cannot load without sqlite3's native binding (`--ignore-scripts`), so the
 * agent node gets a stand-in type declaring the agent's inputs; every other node runs its real
 * class from the installed packages.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import {
	createRunExecutionData,
	Workflow,
	type IDataObject,
	type INodeType,
	type INodeTypes,
} from 'n8n-workflow';
import { ExecuteContext } from 'n8n-core';
import { createAdditionalData } from '../../src/hosts/standalone/additional-data';
import type { StandaloneHost } from '../../src/hosts/standalone/standalone-host';
import type { SubWorkflowScope } from '../../src/hosts/standalone/sub-workflows/sub-workflow-runner';
import type { WorkflowExport } from '../../src/hosts/standalone/workflow-file';

const requireHere = createRequire(__filename);

/** The agent's stand-in: the inputs of n8n's AI Agent, nothing else. */
const agentStandIn: INodeType = {
	description: {
		displayName: 'Agent stand-in',
		name: 'agentStandIn',
		group: ['transform'],
		version: 1,
		description: '',
		defaults: { name: 'AI Agent' },
		inputs: [
			'main',
			{ type: 'ai_languageModel', displayName: 'Chat Model', maxConnections: 1 },
			{ type: 'ai_memory', displayName: 'Memory', maxConnections: 1 },
			{ type: 'ai_tool', displayName: 'Tool' },
			{ type: 'ai_outputParser', displayName: 'Output Parser', maxConnections: 1 },
		],
		outputs: ['main'],
		properties: [],
	},
};

/** One tool as n8n's agent hands it to the model, and the LangChain tool itself. */
export interface N8nReferenceTool {
	name: string;
	description: string;
	/** `convertToOpenAITool(tool).function.parameters` without `$schema` (which this package strips). */
	parameters: IDataObject;
	sourceNodeName: string;
	tool: { invoke(input: unknown): Promise<unknown> };
}

/**
 * The tools n8n's AI Agent `agentName` of `workflowExport` would give its model (with
 * `subWorkflows`, their sub-workflow calls run as the standalone host runs them).
 * @throws what n8n throws when a sub-node fails to supply its tool.
 */
export async function n8nAgentTools(
	workflowExport: WorkflowExport,
	agentName: string,
	host: StandaloneHost,
	input: IDataObject = {},
	options: { subWorkflows?: SubWorkflowScope } = {},
): Promise<{ tools: N8nReferenceTool[]; close(): Promise<void> }> {
	const nodeTypes: INodeTypes = {
		getByName: (type) =>
			type === agentNodeType(workflowExport, agentName)
				? agentStandIn
				: host.nodeTypes.getByName(type),
		getByNameAndVersion: (type, version) =>
			type === agentNodeType(workflowExport, agentName)
				? agentStandIn
				: host.nodeTypes.getByNameAndVersion(type, version),
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({
		id: workflowExport.id ?? 'reference',
		name: workflowExport.name ?? 'reference',
		nodes: structuredClone(workflowExport.nodes),
		connections: workflowExport.connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1', timezone: 'UTC' },
	});
	const agent = workflow.getNode(agentName)!;
	const additionalData = createAdditionalData({
		credentialsHelper: host.credentialsHelper,
		workflowData: {
			id: workflow.id,
			name: workflow.name ?? '',
			active: false,
			activeVersionId: null,
			isArchived: false,
			nodes: Object.values(workflow.nodes),
			connections: workflowExport.connections,
			createdAt: new Date(),
			updatedAt: new Date(),
		},
		nodeName: agentName,
		subWorkflows: options.subWorkflows,
	});
	const items = [{ json: input }];
	const inputData = { main: [items] };
	const closeFunctions: Array<() => Promise<void>> = [];
	const context = new ExecuteContext(
		workflow,
		agent,
		additionalData,
		'manual',
		createRunExecutionData(),
		0,
		items,
		inputData,
		{ node: agent, data: inputData, source: null },
		closeFunctions,
		new AbortController().signal,
	);
	const tools = (await langChainHelpers().getConnectedTools(context, true, false)) as Array<{
		name: string;
		description: string;
		metadata?: { sourceNodeName?: string };
		invoke(input: unknown): Promise<unknown>;
	}>;
	return {
		tools: tools.map((tool) => {
			const { parameters } = convertToOpenAITool(tool as never).function as {
				parameters: IDataObject;
			};
			delete parameters.$schema;
			return {
				name: tool.name,
				description: tool.description,
				parameters,
				sourceNodeName: tool.metadata?.sourceNodeName ?? '',
				tool,
			};
		}),
		close: async () => {
			await Promise.allSettled(closeFunctions.map(async (close) => await close()));
		},
	};
}

function agentNodeType(workflow: WorkflowExport, agentName: string): string | undefined {
	return workflow.nodes.find((node) => node.name === agentName)?.type;
}

/** n8n's LangChain helpers (`getConnectedTools`): its `exports` hide them, so by absolute path. */
function langChainHelpers(): {
	getConnectedTools(context: unknown, unique: boolean, convert: boolean): Promise<unknown[]>;
} {
	// Beside n8n-nodes-base: …/node_modules/@n8n/n8n-nodes-langchain.
	const nodeModules = dirname(dirname(requireHere.resolve('n8n-nodes-base/package.json')));
	return requireHere(join(nodeModules, '@n8n/n8n-nodes-langchain/dist/utils/helpers.js'));
}

/** What a model is told of one tool: the part the comparisons with n8n check. */
export interface ToolFace {
	name: string;
	description: string;
	parameters: object;
}

/**
 * The tools' faces keyed by `<source node> › <tool name>`, `$schema` left out (n8n's converter
 * keeps the draft line, this package's drops it): compare ours with n8n's in one `toEqual`.
 */
export function toolFaces(
	tools: ReadonlyArray<ToolFace & { sourceNodeName?: string }>,
): Record<string, ToolFace> {
	return Object.fromEntries(
		tools.map(({ sourceNodeName, name, description, parameters }) => {
			const { $schema: _draft, ...rest } = parameters as Record<string, unknown>;
			return [`${sourceNodeName} › ${name}`, { name, description, parameters: rest }];
		}),
	);
}
