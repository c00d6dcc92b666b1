import type { AgentConfig, AgentToolChoice } from '../agent/agent-state';
import type { AgentOutputFormat } from '../agent/output-format/agent-output-item';
import { resolveOutputSchema } from '../agent/output-format/resolve-output-schema';
import type { StructuredOutputStrategy } from '../agent/output-format/structured-output-config';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import { secondsToMs } from './option-values';

/** "On Memory Error": go on without the memory (default), or fail the item. */
export type MemoryErrorPolicy = 'continue' | 'fail';

/** The orchestrator's own options (the loop's, not the model call's), as n8n hands them over. */
export interface LoopNodeOptions {
	systemMessage?: string;
	maxIterations?: number;
	maxIterationsBehavior?: 'error' | 'finalAnswer';
	repeatedCallLimit?: number;
	toolChoice?: 'auto' | 'required' | 'none' | 'tool';
	toolChoiceName?: string;
	parallelToolCalls?: boolean;
	toolImages?: 'auto' | 'send' | 'textOnly';
	outputFormat?: AgentOutputFormat;
	outputSchemaFrom?: 'schema' | 'example';
	outputSchema?: string | object;
	outputStrategy?: 'auto' | 'responseFormat' | 'tool';
	toolTimeout?: number;
	runTimeout?: number;
	toolConcurrency?: number;
	returnIntermediateSteps?: boolean;
	debugLog?: boolean;
	onMemoryError?: MemoryErrorPolicy;
}

/** The loop's settings from the orchestrator's options (time limits in ms; absent: the loop's defaults; 0: none). */
export interface LoopOptionValues {
	config: Pick<
		Partial<AgentConfig>,
		| 'systemMessage'
		| 'maxIterations'
		| 'limitBehavior'
		| 'repeatedCallLimit'
		| 'toolChoice'
		| 'parallelToolCalls'
		| 'imageInput'
		| 'structuredOutput'
	>;
	outputFormat: AgentOutputFormat;
	toolTimeoutMs?: number;
	runTimeoutMs?: number;
	concurrency: number;
	returnIntermediateSteps: boolean;
	debugLog: boolean;
	memoryErrorPolicy: MemoryErrorPolicy;
}

/**
 * Reads the orchestrator's loop options (system message, limits, tool choice, output format,
 * tool and run time limits, concurrency, output and memory policy). The model options are
 * read by `readModelOptions`, from the one table both nodes share.
 *
 * @throws {AgentConfigurationError} for a named tool choice without a name, or an output
 * schema that is not JSON.
 */
export function readLoopOptions(options: Readonly<Record<string, unknown>>): LoopOptionValues {
	const given = options as LoopNodeOptions;
	const config: LoopOptionValues['config'] = {
		systemMessage: given.systemMessage,
		maxIterations: given.maxIterations,
		limitBehavior:
			given.maxIterationsBehavior === 'finalAnswer'
				? 'final-answer'
				: given.maxIterationsBehavior === 'error'
					? 'error'
					: undefined,
		repeatedCallLimit: given.repeatedCallLimit,
		toolChoice: readToolChoice(given),
		parallelToolCalls: given.parallelToolCalls,
		imageInput:
			given.toolImages === 'send' ? true : given.toolImages === 'textOnly' ? false : undefined,
	};
	const outputFormat = given.outputFormat ?? 'text';
	const schema = resolveOutputSchema(given.outputSchema, given.outputSchemaFrom ?? 'schema');
	if (outputFormat === 'json' || (outputFormat === 'full' && schema !== undefined)) {
		const strategy: StructuredOutputStrategy =
			given.outputStrategy === 'responseFormat'
				? 'response-format'
				: (given.outputStrategy ?? 'auto');
		config.structuredOutput = schema === undefined ? { strategy } : { schema, strategy };
	}
	return {
		config,
		outputFormat,
		toolTimeoutMs: secondsToMs(given.toolTimeout),
		runTimeoutMs: secondsToMs(given.runTimeout),
		concurrency: given.toolConcurrency ?? 4,
		returnIntermediateSteps: given.returnIntermediateSteps ?? false,
		debugLog: given.debugLog ?? false,
		memoryErrorPolicy: given.onMemoryError === 'fail' ? 'fail' : 'continue',
	};
}

function readToolChoice(options: LoopNodeOptions): AgentToolChoice | undefined {
	if (options.toolChoice !== 'tool') return options.toolChoice;
	const name = (options.toolChoiceName ?? '').trim();
	if (name === '')
		throw new AgentConfigurationError(
			'toolChoiceName',
			'Tool Choice is "A Specific Tool" but "Tool Name" is empty. Give the tool name, e.g. Hash_text.',
		);
	return { name };
}
