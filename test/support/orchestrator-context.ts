/**
 * The slice of n8n's execute context the AgentOrchestrator node uses, for node-level tests.
 * The real one is exercised by the e2e suite against n8n 2.41.1; here tools, memory and
 * connected chat models are real LangChain objects.
 */
import { getBinaryDataBuffer } from 'n8n-core';
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { AgentOrchestrator } from '../../nodes/AgentOrchestrator/AgentOrchestrator.node';

/** The API key the fake credential holds. */
export const orchestratorApiKey = 'sk-or-v1-0123456789abcdef0123456789abcdef';

export interface OrchestratorContextOptions {
	/** The credential's base URL; with no credential (`credentials: null`) reading it fails as n8n fails. */
	baseUrl?: string;
	/** The input items' json (default one item `{ chatInput: 'hello' }`); or `inputItems`, whole items (binary data too). */
	items?: IDataObject[];
	inputItems?: INodeExecutionData[];
	options?: IDataObject;
	parameters?: IDataObject;
	credentialType?: 'openRouterApi' | 'openAiCompatibleApi';
	/** Extra credential fields; `null`: the node has no credential set. */
	credentials?: IDataObject | null;
	tools?: unknown;
	/** The memory sub-node's supplied memory, or a function that throws as a failing sub-node does. */
	memory?: unknown;
	/** A connected chat model sub-node's supplied model. */
	model?: unknown;
	streaming?: boolean;
	continueOnFail?: boolean;
	/** The execution's cancel signal. */
	signal?: AbortSignal;
}

/** A context for one execution of the node, and what the node did with it. */
export function orchestratorContext(options: OrchestratorContextOptions) {
	const chunks: Array<[string, number, unknown]> = [];
	const credentialReads: string[] = [];
	const warnings: string[] = [];
	const node: INode = {
		id: 'n',
		name: 'Agent',
		type: 'n8n-nodes-toolbridge.agentOrchestrator',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const bufferReads: string[] = [];
	const items: INodeExecutionData[] =
		options.inputItems ?? (options.items ?? [{ chatInput: 'hello' }]).map((json) => ({ json }));
	const parameters: IDataObject = {
		authentication: options.credentialType ?? 'openRouterApi',
		model: 'test/model',
		options: options.options ?? {},
		...options.parameters,
	};
	const connection = (type: string): unknown => {
		if (type === 'ai_tool') return options.tools ?? [];
		if (type === 'ai_memory')
			return typeof options.memory === 'function'
				? (options.memory as () => unknown)()
				: options.memory;
		if (type === 'ai_languageModel') return options.model;
		return undefined;
	};
	const context = {
		getNode: () => node,
		getWorkflow: () => ({ id: 'wf-7', name: 'Test workflow', active: false }),
		getExecutionId: () => '42',
		getInputData: () => items,
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			if (name === 'prompt')
				return (parameters.prompt as string | undefined) ?? items[itemIndex].json.chatInput;
			return parameters[name] ?? fallback;
		},
		getCredentials: async (type: string) => {
			credentialReads.push(type);
			if (options.credentials === null)
				throw new Error(`Node "Agent" does not have any credentials set for "${type}"`);
			if (type !== (options.credentialType ?? 'openRouterApi'))
				throw new Error(`unexpected credential ${type}`);
			return { apiKey: orchestratorApiKey, url: options.baseUrl, ...options.credentials };
		},
		getInputConnectionData: async (type: string) => connection(type),
		isStreaming: () => options.streaming ?? false,
		sendChunk: (type: string, itemIndex: number, content?: unknown) =>
			chunks.push([type, itemIndex, content]),
		continueOnFail: () => options.continueOnFail ?? false,
		getExecutionCancelSignal: () => options.signal,
		logger: { debug: () => undefined, warn: (line: string) => warnings.push(line) },
		// n8n-core's own reader, so a file stored by its BinaryDataService (filesystem mode) is read as n8n reads it.
		helpers: {
			getBinaryDataBuffer: async (itemIndex: number, property: string) => {
				bufferReads.push(`${itemIndex}:${property}`);
				return await getBinaryDataBuffer({ main: [items] }, itemIndex, property, 0);
			},
		},
	};
	return {
		context: context as unknown as IExecuteFunctions,
		chunks,
		credentialReads,
		warnings,
		bufferReads,
	};
}

/** Runs the node's execute (these contexts cannot take engine requests, so it returns items). */
export async function executeOrchestrator(
	context: IExecuteFunctions,
): Promise<INodeExecutionData[][]> {
	return (await new AgentOrchestrator().execute.call(context)) as INodeExecutionData[][];
}

/** The text the node streamed for its items (`sendChunk('item', …)`). */
export function streamedText(chunks: Array<[string, number, unknown]>): string {
	return chunks
		.filter(([type]) => type === 'item')
		.map(([, , content]) => content)
		.join('');
}
