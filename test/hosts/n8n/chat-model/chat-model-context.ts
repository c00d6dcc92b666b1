import type { IDataObject, INode, ISupplyDataFunctions } from 'n8n-workflow';

/** An API key shaped like OpenRouter's: the redaction tests look for it in errors. */
export const apiKey = 'sk-or-v1-0123456789abcdef0123456789abcdef';

/**
 * The slice of n8n's supply-data context the sub-node and the SDK's adapter use (parameters,
 * credential, and the tracing calls of N8nLlmTracing, recorded in `traced`).
 */
export function chatModelContext(options: {
	baseUrl: string;
	parameters?: IDataObject;
	credentials?: IDataObject;
	credentialType?: string;
}) {
	const node: INode = {
		id: 'm',
		name: 'Toolbridge Chat Model',
		type: 'n8n-nodes-toolbridge.toolbridgeChatModel',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const parameters: IDataObject = {
		authentication: options.credentialType ?? 'openRouterApi',
		model: { __rl: true, mode: 'list', value: 'test/model' },
		options: {},
		...options.parameters,
	};
	const traced: Array<{ kind: 'input' | 'output'; data: unknown }> = [];
	let runIndex = 0;
	const context = {
		getNode: () => node,
		getNodeParameter: (
			name: string,
			_itemIndex: number,
			fallback?: unknown,
			extra?: { extractValue?: boolean },
		) => {
			const value = parameters[name] ?? fallback;
			if (extra?.extractValue && typeof value === 'object' && value !== null && '__rl' in value)
				return (value as unknown as { value: unknown }).value;
			return value;
		},
		getCredentials: async (type: string) => {
			if (type !== (options.credentialType ?? 'openRouterApi'))
				throw new Error(`unexpected credential ${type}`);
			return { apiKey, url: options.baseUrl, ...options.credentials };
		},
		addInputData: (_type: string, data: unknown) => {
			traced.push({ kind: 'input', data });
			return { index: runIndex++ };
		},
		addOutputData: (_type: string, _index: number, data: unknown) =>
			traced.push({ kind: 'output', data }),
		getNextRunIndex: () => runIndex,
		setMetadata: () => undefined,
		logAiEvent: () => undefined,
		getExecutionCancelSignal: () => undefined,
		logger: { debug: () => undefined, warn: () => undefined, error: () => undefined },
	};
	return { context: context as unknown as ISupplyDataFunctions, traced, parameters };
}
