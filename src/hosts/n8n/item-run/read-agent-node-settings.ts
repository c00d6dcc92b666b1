import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { AgentConfig } from '../../../agent/agent-state';
import { withoutModelOptions } from '../../../agent/model-options';
import type { ChatConnection } from '../../../agent/create-chat-model-caller';
import { chatConnectionFor } from '../../../node-settings/chat-connection-for';
import { readModelParameter } from '../../../node-settings/read-model-parameter';
import { readCredentialConnection } from '../../../node-settings/read-credential-connection';
import type { CallModel } from '../../../agent/call-model-step';
import { createChatModelCaller } from '../../../agent/create-chat-model-caller';
import { createLangChainModelCaller } from '../langchain/langchain-model-caller';
import { readConnectedModel } from '../langchain/read-connected-model';
import { toolbridgeNativeModelOf } from '../chat-model/toolbridge-native-model';
import { traceModelCalls, type ModelTraceContext } from '../chat-model/trace-model-calls';
import { chatServerOf } from '../../../chat/chat-server';
import { Redactor } from '../../../chat/redactor';
import type { MemoryErrorPolicy } from '../memory/node-memory';
import type { AgentOutputFormat } from '../../../agent/output-format/agent-output-item';
import { readLoopOptions } from '../../../node-settings/read-loop-options';
import { readModelOptions } from '../../../node-settings/read-model-options';

/** Everything one item's run needs from the node's parameters and credential. */
export interface AgentNodeSettings {
	/** The built-in client's connection (the node's credential); absent when a chat model sub-node is connected. */
	connection?: ChatConnection;
	/** Set when a chat model sub-node is connected: calls it (it wins over the node's credential and model). */
	callModel?: CallModel;
	/**
	 * Which model the run calls: the node's own (credential + Model), a connected LangChain chat
	 * model, or a connected Toolbridge Chat Model (its settings, called natively).
	 */
	modelSource: 'built-in' | 'connected' | 'toolbridge-sub-node';
	config: Partial<AgentConfig> & { model: string };
	prompt: string;
	concurrency: number;
	returnIntermediateSteps: boolean;
	debugLog: boolean;
	/** What the run redacts from everything it reports: the credential's API key and the extra header values. */
	secrets: string[];
	/** The node's "Output Format" (text, json, full); absent: text. */
	outputFormat?: AgentOutputFormat;
	/** Per tool call, in ms (in-process tools only: n8n's engine runs engine tools itself); absent: the loop's default; 0: none. */
	toolTimeoutMs?: number;
	/** For the whole run, in ms; absent: the loop's default; 0: none. */
	runTimeoutMs?: number;
	/** "On Memory Error": go on without the memory (default), or fail the item. */
	memoryErrorPolicy: MemoryErrorPolicy;
}

/**
 * Reads one item's settings from the node: the connected chat model (the Chat Model input)
 * or else the credential (n8n's `openRouterApi` or our `openAiCompatibleApi`) and model,
 * prompt and options. With a connected model the node's credential is not read and the
 * model options that belong to the built-in client (sampling, fallbacks, routing) are not
 * sent: the sub-node's own settings apply.
 *
 * @throws {AgentConfigurationError} for a credential without a base URL or with extra
 * headers that are not a JSON object.
 * @throws what n8n's `getCredentials` / `getNodeParameter` throw, and what a connected
 * sub-node's `supplyData` throws.
 */
export async function readAgentNodeSettings(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<AgentNodeSettings> {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const model = readModelOptions(options);
	const { config: loop, ...run } = readLoopOptions(options);
	const connected = await readConnectedModel(context, itemIndex);

	const config: AgentNodeSettings['config'] = {
		// A string (version 1) or a resource locator (version 1.1); n8n extracts the locator's value, the standalone reader does not.
		model: readModelParameter(
			context.getNodeParameter('model', itemIndex, '', { extractValue: true }),
		),
		...loop,
		...model.config,
	};
	const prompt = context.getNodeParameter('prompt', itemIndex, '') as unknown;
	const common = {
		...run,
		config,
		prompt:
			typeof prompt === 'string'
				? prompt
				: prompt === undefined || prompt === null
					? ''
					: JSON.stringify(prompt),
	};

	if (connected) {
		const loopConfig = connectedOnly(config);
		const native = toolbridgeNativeModelOf(connected.model);
		if (native) {
			// Our own sub-node: its client settings, called directly (no LangChain round trip), each call logged as its run.
			const trace = traceContextOf(connected.model);
			const direct = createChatModelCaller(native.connection);
			const callModel = trace
				? traceModelCalls(direct, trace, new Redactor(native.secrets))
				: direct;
			return {
				...common,
				config: { ...loopConfig, ...native.config },
				connection: native.connection,
				callModel,
				modelSource: 'toolbridge-sub-node',
				secrets: native.secrets,
			};
		}
		// Any other chat model: its own settings and credential rule; a structured answer is asked
		// for with a forced tool (every tool-calling model has that), unless the user chose otherwise.
		if (loopConfig.structuredOutput?.strategy === 'auto')
			loopConfig.structuredOutput = { ...loopConfig.structuredOutput, strategy: 'tool' };
		const callModel = createLangChainModelCaller(connected.model, {
			totalTimeoutMs: model.connection.timeoutMs,
			firstTokenTimeoutMs: model.connection.firstTokenTimeoutMs,
			stallTimeoutMs: model.connection.stallTimeoutMs,
		});
		return {
			...common,
			config: { ...loopConfig, model: connected.name },
			callModel,
			modelSource: 'connected',
			secrets: [],
		};
	}

	const { connection, secrets } = chatConnectionFor(
		await readCredentialConnection(context, itemIndex),
		model.connection,
	);
	return {
		...common,
		config: { ...config, server: chatServerOf(connection) },
		connection,
		modelSource: 'built-in',
		secrets,
	};
}

/**
 * The config fields that still apply with a connected model: the loop's (system message,
 * limits, tool choice, output format). The model options (sampling, fallbacks, routing,
 * caching, provider options: the model-options table) belong to the built-in client; the
 * connected model has its own.
 */
export function connectedOnly(config: AgentNodeSettings['config']): AgentNodeSettings['config'] {
	return withoutModelOptions(config);
}

/** The run's model call: the connected sub-node's, else the built-in client on the node's credential. */
export function modelCallerOf(
	settings: Pick<AgentNodeSettings, 'callModel' | 'connection'>,
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
	settings: Pick<AgentNodeSettings, 'modelSource' | 'config'>,
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
