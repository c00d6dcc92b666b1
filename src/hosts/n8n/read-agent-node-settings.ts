import type { IExecuteFunctions } from 'n8n-workflow';
import type { AgentConfig, AgentToolChoice } from '../../agent/agent-state';
import type { ChatConnection } from '../../agent/create-chat-model-caller';
import { chatConnectionFor } from './chat-connection-for';
import { readModelParameter } from './read-model-parameter';
import { readCredentialConnection } from './read-credential-connection';
import type { AgentOutputFormat } from '../../agent/output-format/agent-output-item';
import { readModelOptions, type ModelNodeOptions } from './read-model-options';

/** The node's "Options" collection, as n8n hands it over (only options the user added). */
export interface AgentNodeOptions extends Omit<ModelNodeOptions, 'toolChoice'> {
	systemMessage?: string;
	maxIterations?: number;
	maxIterationsBehavior?: 'error' | 'finalAnswer';
	repeatedCallLimit?: number;
	toolChoice?: 'auto' | 'required' | 'none' | 'tool';
	temperature?: number;
	maxTokens?: number;
	reasoningEffort?: 'default' | 'minimal' | 'low' | 'medium' | 'high';
	parallelToolCalls?: boolean;
	timeout?: number;
	toolConcurrency?: number;
	returnIntermediateSteps?: boolean;
	debugLog?: boolean;
}

/** Everything one item's run needs from the node's parameters and credential. */
export interface AgentNodeSettings {
	connection: ChatConnection;
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
}


/**
 * Reads one item's settings from the node: credential (n8n's `openRouterApi` or our
 * `openAiCompatibleApi`), model, prompt and options.
 *
 * @throws {AgentConfigurationError} for a credential without a base URL or with extra
 * headers that are not a JSON object.
 * @throws what n8n's `getCredentials` / `getNodeParameter` throw.
 */
export async function readAgentNodeSettings(context: IExecuteFunctions, itemIndex: number): Promise<AgentNodeSettings> {
	const credential = await readCredentialConnection(context, itemIndex);

	const options = context.getNodeParameter('options', itemIndex, {}) as AgentNodeOptions;
	const model = readModelOptions(options);
	const { connection, secrets } = chatConnectionFor(credential, model, options.timeout);

	const config: AgentNodeSettings['config'] = {
		// A string (version 1) or a resource locator (version 1.1); n8n extracts the locator's value, the standalone reader does not.
		model: readModelParameter(context.getNodeParameter('model', itemIndex, '', { extractValue: true })),
		systemMessage: options.systemMessage,
		maxIterations: options.maxIterations,
		limitBehavior: options.maxIterationsBehavior === 'finalAnswer' ? 'final-answer' : options.maxIterationsBehavior === 'error' ? 'error' : undefined,
		repeatedCallLimit: options.repeatedCallLimit,
		toolChoice: options.toolChoice as AgentToolChoice | undefined,
		...model.config,
		parallelToolCalls: options.parallelToolCalls,
		temperature: options.temperature,
		maxTokens: options.maxTokens,
	};
	if (options.reasoningEffort && options.reasoningEffort !== 'default') config.reasoning = { effort: options.reasoningEffort };

	const prompt = context.getNodeParameter('prompt', itemIndex, '') as unknown;
	return {
		connection,
		config,
		prompt: typeof prompt === 'string' ? prompt : prompt === undefined || prompt === null ? '' : JSON.stringify(prompt),
		concurrency: options.toolConcurrency ?? 4,
		returnIntermediateSteps: options.returnIntermediateSteps ?? false,
		debugLog: options.debugLog ?? false,
		secrets,
		outputFormat: model.outputFormat,
		toolTimeoutMs: model.toolTimeoutMs,
		runTimeoutMs: model.runTimeoutMs,
	};
}
