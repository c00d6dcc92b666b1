/**
 * The slice of n8n's execute context the Agent Orchestrator's item runners use, for tests
 * that call them directly (with a fake `callModel`) or through the node against the fake
 * chat server. Binary data is read with n8n-core's own `getBinaryDataBuffer`, so a file
 * stored by n8n-core's BinaryDataService (filesystem mode) is read the way n8n reads it.
 */
import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { orchestratorApiKey, orchestratorContext } from '../../support/orchestrator-context';

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

export const stubApiKey = orchestratorApiKey;

/** A stub context (the shared orchestrator context), and `bufferReads`: the binary properties read, as `item:property`. */
export function stubExecuteContext(options: StubContextOptions): {
	context: IExecuteFunctions;
	bufferReads: string[];
} {
	const { items, memory, ...rest } = options;
	const { context, bufferReads } = orchestratorContext({
		...rest,
		baseUrl: options.baseUrl ?? 'http://127.0.0.1:9/v1',
		inputItems: items,
		memory,
	});
	return { context, bufferReads };
}

/** An n8n binary entry held in the item itself (n8n's default mode): base64 data. */
export function inlineBinary(
	content: Buffer,
	mimeType: string,
	fileName?: string,
): IBinaryKeyData[string] {
	return {
		data: content.toString('base64'),
		mimeType,
		...(fileName ? { fileName } : {}),
		bytes: content.length,
	};
}
