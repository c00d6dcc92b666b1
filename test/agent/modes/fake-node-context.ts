/**
 * The slice of n8n's execute / supply-data contexts the AgentOrchestrator uses, for mode
 * tests. Tools are real (LangChain tools from our bridge running real n8n-nodes-base nodes,
 * or tools supplied by other AgentOrchestrator nodes through their real `supplyData`); only
 * the model is the loopback fake. The real n8n contexts are exercised by the e2e suite.
 */
import type { IDataObject, IExecuteFunctions, INode, ISupplyDataFunctions } from 'n8n-workflow';

export const fakeApiKey = 'sk-or-v1-fedcba9876543210fedcba9876543210';

export interface FakeNodeOptions {
	name: string;
	baseUrl: string;
	parameters: IDataObject;
	items?: IDataObject[];
	/** What `getInputConnectionData('ai_tool')` returns (a function is called each time). */
	tools?: unknown[] | (() => Promise<unknown[]>);
	signal?: AbortSignal;
	continueOnFail?: boolean;
}

export interface FakeNodeContext {
	execute: IExecuteFunctions;
	supply: ISupplyDataFunctions;
	/** Runs logged through addInputData / addOutputData (nested tool calls). */
	logged: Array<{ kind: 'input' | 'output'; data: unknown }>;
}

export function fakeNodeContext(options: FakeNodeOptions): FakeNodeContext {
	const node: INode = {
		id: options.name,
		name: options.name,
		type: 'n8n-nodes-toolbridge.agentOrchestrator',
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters as INode['parameters'],
	};
	const items = (options.items ?? [{ chatInput: 'hello' }]).map((json) => ({ json }));
	const parameters: IDataObject = {
		authentication: 'openRouterApi',
		options: {},
		...options.parameters,
	};
	const logged: FakeNodeContext['logged'] = [];
	const context = {
		getNode: () => node,
		getWorkflow: () => ({ id: 'wf-modes', active: false }),
		getInputData: () => items,
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			if (name === 'prompt' && parameters.prompt === undefined)
				return items[itemIndex].json.chatInput;
			if (name.startsWith('options.'))
				return (parameters.options as IDataObject)[name.slice(8)] ?? fallback;
			return parameters[name] ?? fallback;
		},
		getCredentials: async () => ({ apiKey: fakeApiKey, url: options.baseUrl }),
		getInputConnectionData: async (type: string) => {
			if (type !== 'ai_tool') return undefined;
			return typeof options.tools === 'function' ? await options.tools() : (options.tools ?? []);
		},
		evaluateExpression: () => {
			throw new Error('this test does not evaluate expressions');
		},
		addInputData: (_type: string, data: unknown) => {
			logged.push({ kind: 'input', data });
			return { index: logged.length };
		},
		addOutputData: (_type: string, _index: number, data: unknown) =>
			logged.push({ kind: 'output', data }),
		isStreaming: () => false,
		sendChunk: () => undefined,
		continueOnFail: () => options.continueOnFail ?? false,
		getExecutionCancelSignal: () => options.signal,
		logger: { debug: () => undefined, warn: () => undefined },
	};
	return {
		execute: context as unknown as IExecuteFunctions,
		supply: context as unknown as ISupplyDataFunctions,
		logged,
	};
}
