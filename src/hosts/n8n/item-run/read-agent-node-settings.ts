import type { IExecuteFunctions } from 'n8n-workflow';
import type { CallModel } from '../../../agent/call-model-step';
import { createChatModelCaller } from '../../../agent/create-chat-model-caller';
import { Redactor } from '../../../chat/redactor';
import {
	withChatModel,
	withConnectedModel,
	withOwnCredential,
	type AgentNodeSettings,
} from '../../../node-settings/agent-node-settings';
import type {
	CredentialGetter,
	NodeParameterGetter,
} from '../../../node-settings/node-parameter-getter';
import { readAgentNodeParameters } from '../../../node-settings/read-agent-node-parameters';
import { readCredentialConnection } from '../../../node-settings/read-credential-connection';
import { toolbridgeNativeModelOf } from '../chat-model/toolbridge-native-model';
import { traceModelCalls, type ModelTraceContext } from '../chat-model/trace-model-calls';
import { createLangChainModelCaller } from '../../../langchain/langchain-model-caller';
import { readConnectedModel } from '../langchain/read-connected-model';

/** One item's settings inside n8n, with the model the run calls. */
export interface NodeItemSettings extends AgentNodeSettings {
	/** Set when a chat model sub-node is connected: calls it (it wins over the node's credential and model). */
	callModel?: CallModel;
	/**
	 * Which model the run calls: the node's own (credential + Model), a connected LangChain chat
	 * model, or a connected Toolbridge Chat Model (its settings, called natively).
	 */
	modelSource: 'built-in' | 'connected' | 'toolbridge-sub-node';
}

/**
 * Reads one item's settings from the node (the host-free readers of `node-settings/`, over the
 * item's parameters) and chooses its model: the chat model connected to the Chat Model input,
 * or else the node's credential (n8n's `openRouterApi` or our `openAiCompatibleApi`) and
 * Model. With a connected model the node's credential is not read and the model options that
 * belong to the built-in client (sampling, fallbacks, routing) are not sent: the sub-node's
 * own settings apply. A connected Toolbridge Chat Model is called with the built-in client
 * (each call logged as a run of the sub-node); any other through LangChain.
 *
 * @throws {AgentConfigurationError} for a credential without a base URL or with extra
 * headers that are not a JSON object.
 * @throws what n8n's `getCredentials` / `getNodeParameter` throw, and what a connected
 * sub-node's `supplyData` throws.
 */
export async function readAgentNodeSettings(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<NodeItemSettings> {
	const get: NodeParameterGetter = (name, fallback) =>
		// The Model is a string (version 1) or a resource locator (version 1.1): n8n extracts the locator's value.
		name === 'model'
			? context.getNodeParameter(name, itemIndex, fallback as never, { extractValue: true })
			: context.getNodeParameter(name, itemIndex, fallback as never);
	const parameters = readAgentNodeParameters(get);
	const connected = await readConnectedModel(context, itemIndex);
	if (connected) {
		const native = toolbridgeNativeModelOf(connected.model);
		if (native) {
			// Our own sub-node: its client settings, called directly (no LangChain round trip), each call logged as its run.
			const trace = traceContextOf(connected.model);
			const direct = createChatModelCaller(native.connection);
			const callModel = trace
				? traceModelCalls(direct, trace, new Redactor(native.secrets))
				: direct;
			return {
				...withChatModel(parameters, native),
				callModel,
				modelSource: 'toolbridge-sub-node',
			};
		}
		const callModel = createLangChainModelCaller(connected.model, {
			totalTimeoutMs: parameters.modelConnection.timeoutMs,
			firstTokenTimeoutMs: parameters.modelConnection.firstTokenTimeoutMs,
			stallTimeoutMs: parameters.modelConnection.stallTimeoutMs,
		});
		return {
			...withConnectedModel(parameters, connected.name),
			callModel,
			modelSource: 'connected',
		};
	}
	const getCredential: CredentialGetter = (type) => context.getCredentials(type, itemIndex);
	return {
		...withOwnCredential(parameters, await readCredentialConnection(get, getCredential)),
		modelSource: 'built-in',
	};
}

/** The run's model call: the connected sub-node's, else the built-in client on the node's credential. */
export function modelCallerOf(
	settings: Pick<NodeItemSettings, 'callModel' | 'connection'>,
): CallModel {
	if (settings.callModel) return settings.callModel;
	// `connection` is set whenever no model is connected (see readAgentNodeSettings).
	return createChatModelCaller(settings.connection!);
}

/** The sub-node context n8n's adapter keeps (`ctx`), where the native path logs each call; absent outside n8n. */
function traceContextOf(connected: unknown): ModelTraceContext | undefined {
	const context = (connected as { ctx?: Partial<ModelTraceContext> }).ctx;
	return context &&
		typeof context.addInputData === 'function' &&
		typeof context.addOutputData === 'function' &&
		typeof context.getNode === 'function'
		? (context as ModelTraceContext)
		: undefined;
}

/** The debug log's line saying which model runs, when it is not the node's own (none then). */
export function modelSourceNotes(
	settings: Pick<NodeItemSettings, 'modelSource' | 'config'>,
): string[] {
	if (settings.modelSource === 'built-in') return [];
	const how =
		settings.modelSource === 'connected'
			? 'the connected chat model, through LangChain'
			: 'the connected Toolbridge Chat Model, called directly with its settings';
	return [
		`[DEBUG] Model: ${settings.config.model}, ${how}; the node's own credential, Model and model options are not used`,
	];
}
