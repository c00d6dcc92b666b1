import type { ProviderPreferences } from '../../../chat/openrouter-fields';
import { jsonSyntaxProblem } from '../../../chat/json-syntax-problem';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import type { AgentConfig, AgentToolChoice } from '../../../agent/agent-state';
import type { AgentOutputFormat } from '../../../agent/output-format/agent-output-item';
import { resolveOutputSchema } from '../../../agent/output-format/resolve-output-schema';
import type { StructuredOutputStrategy } from '../../../agent/output-format/structured-output-config';
import { parseExtraHeaders } from '../../../agent/parse-extra-headers';

/** The node options of issue 9 (sampling, output format, OpenRouter routing, time limits), as n8n hands them over. */
export interface ModelNodeOptions {
	topP?: number;
	topK?: number;
	frequencyPenalty?: number;
	presencePenalty?: number;
	seed?: number;
	stopSequences?: string;
	toolChoice?: 'auto' | 'required' | 'none' | 'tool';
	toolChoiceName?: string;
	extraHeaders?: string | object;
	providerOptions?: string | object;
	outputFormat?: AgentOutputFormat;
	outputSchemaFrom?: 'schema' | 'example';
	outputSchema?: string | object;
	outputStrategy?: 'auto' | 'responseFormat' | 'tool';
	fallbackModels?: string;
	providerOrder?: string;
	providerOnly?: string;
	providerIgnore?: string;
	providerSort?: 'default' | 'price' | 'throughput' | 'latency';
	allowFallbacks?: boolean;
	requireParameters?: boolean;
	dataCollection?: 'default' | 'allow' | 'deny';
	maxPricePrompt?: number;
	maxPriceCompletion?: number;
	promptCaching?: boolean;
	toolTimeout?: number;
	firstTokenTimeout?: number;
	stallTimeout?: number;
	runTimeout?: number;
}

/**
 * What {@link readModelOptions} gives: config fields, extra headers, output format and time
 * limits (ms; absent: the loop's and chat client's defaults apply; 0: no limit).
 */
export interface ModelOptionSettings {
	config: Partial<AgentConfig>;
	headers: Record<string, string>;
	outputFormat: AgentOutputFormat;
	toolTimeoutMs?: number;
	runTimeoutMs?: number;
	firstTokenTimeoutMs?: number;
	stallTimeoutMs?: number;
}

/**
 * Maps the node options to config fields. Only options the user added are set (n8n hands
 * over only those), so only they are sent.
 *
 * @throws {AgentConfigurationError} for more than 4 stop sequences, a named tool choice
 * without a name, headers / provider options / output schema that are not JSON objects.
 */
export function readModelOptions(options: ModelNodeOptions): ModelOptionSettings {
	const config: Partial<AgentConfig> = {
		topP: options.topP,
		topK: options.topK,
		frequencyPenalty: options.frequencyPenalty,
		presencePenalty: options.presencePenalty,
		seed: options.seed,
	};
	const stop = readStopSequences(options.stopSequences);
	if (stop.length > 0) config.stop = stop;
	if (options.toolChoice === 'tool') {
		const name = (options.toolChoiceName ?? '').trim();
		if (name === '')
			throw new AgentConfigurationError(
				'toolChoiceName',
				'Tool Choice is "A Specific Tool" but "Tool Name" is empty. Give the tool name, e.g. Hash_text.',
			);
		config.toolChoice = { name } as AgentToolChoice;
	} else if (options.toolChoice !== undefined) config.toolChoice = options.toolChoice;

	const providerOptions = readJsonObject(
		options.providerOptions,
		'providerOptions',
		'{"transforms":["middle-out"]}',
	);
	if (providerOptions) config.providerOptions = providerOptions;

	const outputFormat = options.outputFormat ?? 'text';
	const schema = resolveOutputSchema(options.outputSchema, options.outputSchemaFrom ?? 'schema');
	if (outputFormat === 'json' || (outputFormat === 'full' && schema !== undefined)) {
		const strategy: StructuredOutputStrategy =
			options.outputStrategy === 'responseFormat'
				? 'response-format'
				: (options.outputStrategy ?? 'auto');
		config.structuredOutput = schema === undefined ? { strategy } : { schema, strategy };
	}

	const fallbackModels = splitList(options.fallbackModels);
	if (fallbackModels.length > 0) config.fallbackModels = fallbackModels;
	const provider = readProviderPreferences(options);
	if (provider) config.providerPreferences = provider;
	if (options.promptCaching !== undefined) config.promptCaching = options.promptCaching;

	return {
		config,
		headers: options.extraHeaders === undefined ? {} : parseExtraHeaders(options.extraHeaders),
		outputFormat,
		toolTimeoutMs: seconds(options.toolTimeout),
		runTimeoutMs: seconds(options.runTimeout),
		firstTokenTimeoutMs: seconds(options.firstTokenTimeout),
		stallTimeoutMs: seconds(options.stallTimeout),
	};
}

function readProviderPreferences(options: ModelNodeOptions): ProviderPreferences | undefined {
	const provider: ProviderPreferences = {};
	const order = splitList(options.providerOrder);
	if (order.length > 0) provider.order = order;
	const only = splitList(options.providerOnly);
	if (only.length > 0) provider.only = only;
	const ignore = splitList(options.providerIgnore);
	if (ignore.length > 0) provider.ignore = ignore;
	if (options.providerSort && options.providerSort !== 'default')
		provider.sort = options.providerSort;
	if (options.allowFallbacks !== undefined) provider.allow_fallbacks = options.allowFallbacks;
	if (options.requireParameters !== undefined)
		provider.require_parameters = options.requireParameters;
	if (options.dataCollection && options.dataCollection !== 'default')
		provider.data_collection = options.dataCollection;
	if (options.maxPricePrompt !== undefined || options.maxPriceCompletion !== undefined) {
		provider.max_price = {};
		if (options.maxPricePrompt !== undefined) provider.max_price.prompt = options.maxPricePrompt;
		if (options.maxPriceCompletion !== undefined)
			provider.max_price.completion = options.maxPriceCompletion;
	}
	return Object.keys(provider).length > 0 ? provider : undefined;
}

/** Stop sequences: a JSON array of strings, or one sequence per line (`\n` written as text stays literal). */
function readStopSequences(text: string | undefined): string[] {
	if (text === undefined || text.trim() === '') return [];
	let sequences: string[];
	const trimmed = text.trim();
	if (trimmed.startsWith('[')) {
		try {
			const parsed: unknown = JSON.parse(trimmed);
			if (!Array.isArray(parsed) || !parsed.every((entry) => typeof entry === 'string'))
				throw new Error('not an array of strings');
			sequences = parsed;
		} catch (error) {
			throw new AgentConfigurationError(
				'stopSequences',
				`Stop Sequences must be one sequence per line or a JSON array of strings such as ["END", "###"]: ${(error as Error).message}.`,
			);
		}
	} else sequences = text.split(/\r?\n/).filter((line) => line !== '');
	if (sequences.length > 4)
		throw new AgentConfigurationError(
			'stopSequences',
			`At most 4 stop sequences are allowed; found ${sequences.length}.`,
		);
	return sequences;
}

function readJsonObject(
	value: string | object | undefined,
	setting: string,
	example: string,
): Record<string, unknown> | undefined {
	if (value === undefined || (typeof value === 'string' && value.trim() === '')) return undefined;
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			// Not the parser's error as the cause: its message quotes the text (header values, say).
			throw new AgentConfigurationError(
				setting,
				`${setting} must be a JSON object such as ${example}; found text that is not JSON: ${jsonSyntaxProblem(error)}`,
			);
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
		throw new AgentConfigurationError(
			setting,
			`${setting} must be a JSON object such as ${example}.`,
		);
	return Object.keys(parsed).length > 0 ? (parsed as Record<string, unknown>) : undefined;
}

function splitList(text: string | undefined): string[] {
	return (text ?? '')
		.split(/[,\n]/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

/** Seconds → ms; absent stays absent (the default applies), 0 stays 0 (no limit). */
function seconds(value: number | undefined): number | undefined {
	if (typeof value !== 'number' || Number.isNaN(value)) return undefined;
	return Math.max(0, value) * 1000;
}
