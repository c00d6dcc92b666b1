import type { ModelOptionKey, ModelSettings } from '../agent/model-options';
import { parseExtraHeaders } from '../agent/parse-extra-headers';
import type { ProviderPreferences } from '../chat/openrouter-fields';
import type { ChatRequest } from '../chat/types';
import { readJsonObject, readStopSequences, secondsToMs, splitList } from './option-values';

/** The settings of the model's connection that options set: extra headers and time limits (ms; 0: none). */
export interface ModelConnectionOptions {
	headers: Record<string, string>;
	/** "Timeout": the whole model call. */
	timeoutMs?: number;
	firstTokenTimeoutMs?: number;
	stallTimeoutMs?: number;
}

/** What the model options of a node give: the model settings that were set, and the connection's. */
export interface ModelOptionValues {
	config: Partial<ModelSettings>;
	connection: ModelConnectionOptions;
}

/**
 * Reads one option's value (as n8n hands it over) into `into`.
 * @throws {AgentConfigurationError} for a value the option cannot take.
 */
export type ReadModelOption = (value: unknown, into: ModelOptionValues) => void;

type ReasoningEffort = NonNullable<NonNullable<ChatRequest['reasoning']>['effort']>;

/** The value as the config field. */
export function toConfig(key: ModelOptionKey): ReadModelOption {
	return (value, into) => {
		(into.config as Record<string, unknown>)[key] = value;
	};
}

/** The value, in seconds, as the connection's limit in ms. */
export function toConnectionMs(
	key: 'timeoutMs' | 'firstTokenTimeoutMs' | 'stallTimeoutMs',
): ReadModelOption {
	return (value, into) => {
		into.connection[key] = secondsToMs(value);
	};
}

/** A `provider` field as given. */
export function toProvider(field: 'allow_fallbacks' | 'require_parameters'): ReadModelOption {
	return (value, into) => {
		providerOf(into)[field] = value as boolean;
	};
}

/** A `provider` list ("a, b"), when not empty. */
export function toProviderList(field: 'order' | 'only' | 'ignore'): ReadModelOption {
	return (value, into) => {
		const list = splitList(value);
		if (list.length > 0) providerOf(into)[field] = list;
	};
}

/** A `provider` choice, unless "Default (Not Sent)". */
export function toProviderChoice(field: 'sort' | 'data_collection'): ReadModelOption {
	return (value, into) => {
		if (chosen(value)) providerOf(into)[field] = value as never;
	};
}

/** One of `provider.max_price`'s fields. */
export function toMaxPrice(field: 'prompt' | 'completion'): ReadModelOption {
	return (value, into) => {
		(providerOf(into).max_price ??= {})[field] = value as number;
	};
}

/** "Fallback Models": a list, when not empty. */
export const readFallbackModels: ReadModelOption = (value, into) => {
	const models = splitList(value);
	if (models.length > 0) into.config.fallbackModels = models;
};

/** "Stop Sequences": one per line or a JSON array, at most 4. */
export const readStop: ReadModelOption = (value, into) => {
	const stop = readStopSequences(value);
	if (stop.length > 0) into.config.stop = stop;
};

/** "Reasoning Effort", unless "Default (Not Sent)". */
export const readReasoningEffort: ReadModelOption = (value, into) => {
	if (chosen(value)) into.config.reasoning = { effort: value as ReasoningEffort };
};

/** "Provider Options": a JSON object, when not empty. */
export const readProviderOptions: ReadModelOption = (value, into) => {
	const options = readJsonObject(value, 'providerOptions', '{"transforms":["middle-out"]}');
	if (options) into.config.providerOptions = options;
};

/** "Extra Headers": a JSON object of header names to values. */
export const readExtraHeaders: ReadModelOption = (value, into) => {
	into.connection.headers = parseExtraHeaders(value);
};

/** A choice that was made: not empty and not "Default (Not Sent)". */
function chosen(value: unknown): value is string {
	return typeof value === 'string' && value !== '' && value !== 'default';
}

function providerOf(into: ModelOptionValues): ProviderPreferences {
	return (into.config.providerPreferences ??= {});
}
