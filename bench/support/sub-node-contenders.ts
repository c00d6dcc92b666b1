import type { IDataObject, ISupplyDataFunctions } from 'n8n-workflow';
import type { CallModel } from '../../src/agent/call-model-step';
import {
	createChatModelCaller,
	type ChatConnection,
} from '../../src/agent/create-chat-model-caller';
import { Redactor } from '../../src/chat/redactor';
import {
	createLangChainModelCaller,
	type LangChainChatModelLike,
} from '../../src/langchain/langchain-model-caller';
import { toolbridgeNativeModelOf } from '../../src/hosts/n8n/chat-model/toolbridge-native-model';
import {
	traceModelCalls,
	type ModelTraceContext,
} from '../../src/hosts/n8n/chat-model/trace-model-calls';
import { ToolbridgeChatModel } from '../../nodes/ToolbridgeChatModel/ToolbridgeChatModel.node';

/**
 * The Toolbridge Chat Model sub-node's two contenders, both from its real `supplyData` (n8n's
 * `@n8n/ai-node-sdk` adapter around our model) on a supply-data context whose tracing calls
 * only count: the LangChain round trip (the adapter called as any LangChain chat model, with
 * n8n's tracing callbacks), and the orchestrator's native path (the built-in client with the
 * sub-node's settings, each call written to the sub-node's run log).
 */
export async function subNodeContenders(
	connection: ChatConnection,
): Promise<Array<{ name: string; callModel: CallModel }>> {
	let runs = 0;
	const parameters: IDataObject = {
		authentication: 'openAiCompatibleApi',
		model: { __rl: true, mode: 'id', value: 'bench/model' },
		options: {},
	};
	const context = {
		getNode: () => ({
			id: 'm',
			name: 'Toolbridge Chat Model',
			type: 'n8n-nodes-toolbridge.toolbridgeChatModel',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getNodeParameter: (
			name: string,
			_itemIndex: number,
			fallback?: unknown,
			extra?: { extractValue?: boolean },
		) => {
			const value = parameters[name] ?? fallback;
			return extra?.extractValue && typeof value === 'object' && value !== null && '__rl' in value
				? (value as unknown as { value: unknown }).value
				: value;
		},
		getCredentials: async () => ({ apiKey: 'sk-bench', url: connection.baseUrl }),
		addInputData: () => ({ index: runs++ }),
		addOutputData: () => undefined,
		getNextRunIndex: () => runs,
		setMetadata: () => undefined,
		logAiEvent: () => undefined,
		getExecutionCancelSignal: () => undefined,
		logger: { debug: () => undefined, warn: () => undefined, error: () => undefined },
	};
	const supplied = (
		await new ToolbridgeChatModel().supplyData.call(context as unknown as ISupplyDataFunctions, 0)
	).response;
	const native = toolbridgeNativeModelOf(supplied);
	if (!native) throw new Error('the sub-node supplied no native model');
	return [
		{
			name: 'Toolbridge Chat Model, LangChain round trip',
			callModel: createLangChainModelCaller(supplied as LangChainChatModelLike),
		},
		{
			name: 'Toolbridge Chat Model, native path',
			callModel: traceModelCalls(
				createChatModelCaller({ ...native.connection, retry: connection.retry }),
				context as unknown as ModelTraceContext,
				new Redactor(native.secrets),
			),
		},
	];
}
