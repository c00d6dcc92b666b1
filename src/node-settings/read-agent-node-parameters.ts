import type { AgentConfig } from '../agent/agent-state';
import type { AgentOutputFormat } from '../agent/output-format/agent-output-item';
import type { ModelConnectionOptions } from './model-option-reads';
import type { NodeParameterGetter } from './node-parameter-getter';
import { readLoopOptions, type MemoryErrorPolicy } from './read-loop-options';
import { readModelOptions } from './read-model-options';
import { readModelParameter } from './read-model-parameter';

/**
 * What an Agent Orchestrator node's parameters say about one run, before its model is settled
 * (the node's own credential, or a connected chat model: see `agent-node-settings`).
 */
export interface AgentNodeParameters {
	/** The Model parameter, the loop options and the model options. */
	config: Partial<AgentConfig> & { model: string };
	prompt: string;
	/** What the model options set on the model's connection: extra headers and time limits. */
	modelConnection: ModelConnectionOptions;
	concurrency: number;
	returnIntermediateSteps: boolean;
	debugLog: boolean;
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
 * Reads an Agent Orchestrator node's Model, Prompt and Options (the loop's options and the
 * model options, from the one table both nodes share). Both hosts call it, each with its own
 * parameter getter (inside n8n the Model's resource locator is already extracted; the
 * standalone reader hands the locator, which `readModelParameter` reads too).
 *
 * @throws {AgentConfigurationError} for a named tool choice without a name, an output schema
 * that is not JSON, more than 4 stop sequences, extra headers or provider options that are
 * not JSON objects.
 * @throws what `get` throws (an invalid expression).
 */
export function readAgentNodeParameters(get: NodeParameterGetter): AgentNodeParameters {
	const options = get('options', {}) as Record<string, unknown>;
	const model = readModelOptions(options);
	const { config: loop, ...run } = readLoopOptions(options);
	const config: AgentNodeParameters['config'] = {
		model: readModelParameter(get('model', '')),
		...loop,
		...model.config,
	};
	const prompt = get('prompt', '');
	return {
		...run,
		config,
		prompt:
			typeof prompt === 'string'
				? prompt
				: prompt === undefined || prompt === null
					? ''
					: JSON.stringify(prompt),
		modelConnection: model.connection,
	};
}
