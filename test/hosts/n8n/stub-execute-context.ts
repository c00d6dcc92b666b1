/**
 * The slice of n8n's execute context the Agent Orchestrator's item runners use, for tests
 * that call them directly (with a fake `callModel`) or through the node against the fake
 * chat server. Binary data is read with n8n-core's own `getBinaryDataBuffer`, so a file
 * stored by n8n-core's BinaryDataService (filesystem mode) is read the way n8n reads it.
 */
import { getBinaryDataBuffer } from 'n8n-core';
import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

export interface StubContextOptions {
	baseUrl?: string;
	items?: Array<{ json: IDataObject; binary?: IBinaryKeyData }>;
	options?: IDataObject;
	parameters?: IDataObject;
	memory?: unknown;
	tools?: unknown[];
	continueOnFail?: boolean;
	signal?: AbortSignal;
}

export const stubApiKey = 'sk-or-v1-0123456789abcdef0123456789abcdef';

/** A stub context, and `bufferReads`: the binary properties read, as `item:property`. */
export function stubExecuteContext(options: StubContextOptions): { context: IExecuteFunctions; bufferReads: string[] } {
	const node: INode = { id: 'n', name: 'Agent', type: 'n8n-nodes-toolbridge.agentOrchestrator', typeVersion: 1, position: [0, 0], parameters: {} };
	const items: INodeExecutionData[] = options.items ?? [{ json: { chatInput: 'hello' } }];
	const parameters: IDataObject = { authentication: 'openRouterApi', model: 'test/model', options: options.options ?? {}, ...options.parameters };
	const bufferReads: string[] = [];
	const context = {
		getNode: () => node,
		getInputData: () => items,
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			if (name === 'prompt') return (parameters.prompt as string | undefined) ?? items[itemIndex].json.chatInput;
			return parameters[name] ?? fallback;
		},
		getCredentials: async () => ({ apiKey: stubApiKey, url: options.baseUrl ?? 'http://127.0.0.1:9/v1' }),
		getInputConnectionData: async (type: string) => (type === 'ai_tool' ? (options.tools ?? []) : type === 'ai_memory' ? options.memory : undefined),
		isStreaming: () => false,
		sendChunk: () => undefined,
		continueOnFail: () => options.continueOnFail ?? false,
		getExecutionCancelSignal: () => options.signal,
		logger: { debug: () => undefined },
		helpers: {
			getBinaryDataBuffer: async (itemIndex: number, property: string) => {
				bufferReads.push(`${itemIndex}:${property}`);
				return await getBinaryDataBuffer({ main: [items] }, itemIndex, property, 0);
			},
		},
	};
	return { context: context as unknown as IExecuteFunctions, bufferReads };
}

/** An n8n binary entry held in the item itself (n8n's default mode): base64 data. */
export function inlineBinary(content: Buffer, mimeType: string, fileName?: string): IBinaryKeyData[string] {
	return { data: content.toString('base64'), mimeType, ...(fileName ? { fileName } : {}), bytes: content.length };
}
