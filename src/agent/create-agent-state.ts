import { argumentChecks } from '../errors/invalid-argument-error';
import type { ChatMessage, ContentPart } from '../chat/types';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import { emptyUsage } from './add-usage';
import type { AgentConfig, AgentState, AgentToolSpec } from './agent-state';
import { sanitizeHistory } from './sanitize-history';

/** Defaults applied to every setting that is not given. */
export const defaultAgentConfig = {
	maxIterations: 20,
	limitBehavior: 'error',
	repeatedCallLimit: 3,
	toolChoice: 'auto',
} as const satisfies Partial<AgentConfig>;

/** What a run starts from. */
export interface AgentInput {
	config: Partial<AgentConfig> & { model: string };
	/** The tools the model may call; only name, description, parameters and sourceNodeName are kept. */
	tools: AgentToolSpec[];
	/** The user message. */
	prompt: string | ContentPart[];
	/** Earlier conversation (from memory), without a system message. */
	history?: ChatMessage[];
}

/**
 * Builds the initial state of a run: system message, sanitized history, user message.
 *
 * @throws {AgentConfigurationError} when the model or prompt is empty, a limit is not a
 * positive integer, or two tools share a name.
 */
export function createAgentState(input: AgentInput): AgentState {
	const check = argumentChecks('createAgentState');
	check.string(
		check.object(check.object(input, 'input').config, 'input.config').model,
		'input.config.model',
	);
	check.array(input.tools, 'input.tools');
	const config = {
		...defaultAgentConfig,
		...dropUndefined(input.config),
		model: input.config.model,
	} as AgentConfig;
	validateConfig(config);
	if (isEmptyPrompt(input.prompt)) {
		throw new AgentConfigurationError(
			'prompt',
			'The prompt is empty. Give the user message in the Prompt parameter (by default it reads {{ $json.chatInput }}, which this item does not have).',
		);
	}
	const tools = input.tools.map(toSpec);
	const seen = new Set<string>();
	for (const tool of tools) {
		if (seen.has(tool.name)) {
			throw new AgentConfigurationError(
				'tools',
				`Two connected tools are named '${tool.name}'. Tool names must be unique; rename one of the tool nodes.`,
			);
		}
		seen.add(tool.name);
	}

	const messages: ChatMessage[] = [];
	if (config.systemMessage) messages.push({ role: 'system', content: config.systemMessage });
	messages.push(
		...sanitizeHistory((input.history ?? []).filter((message) => message.role !== 'system')),
	);
	const turnStart = messages.length;
	messages.push({ role: 'user', content: input.prompt });

	return {
		version: 1,
		config,
		tools,
		messages,
		turnStart,
		steps: [],
		usage: emptyUsage(),
		iterations: 0,
		callCounts: {},
		repeatWarnings: [],
		status: 'ready',
		pendingToolCalls: [],
		reasoning: [],
	};
}

function toSpec(tool: AgentToolSpec): AgentToolSpec {
	const spec: AgentToolSpec = {
		name: tool.name,
		description: tool.description,
		parameters: tool.parameters,
	};
	if (tool.sourceNodeName !== undefined) spec.sourceNodeName = tool.sourceNodeName;
	return spec;
}

function validateConfig(config: AgentConfig): void {
	if (typeof config.model !== 'string' || config.model.trim() === '') {
		throw new AgentConfigurationError(
			'model',
			'The model is empty. Give a model id such as anthropic/claude-sonnet-4.',
		);
	}
	for (const [setting, minimum] of [
		['maxIterations', 1],
		['repeatedCallLimit', 2],
	] as const) {
		const value = config[setting];
		if (!Number.isInteger(value) || value < minimum) {
			throw new AgentConfigurationError(
				setting,
				`${setting} must be an integer of at least ${minimum}; found ${String(value)}.`,
			);
		}
	}
}

function isEmptyPrompt(prompt: AgentInput['prompt']): boolean {
	if (typeof prompt === 'string') return prompt.trim() === '';
	return !Array.isArray(prompt) || prompt.length === 0;
}

function dropUndefined<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(
		Object.entries(value).filter(([, entry]) => entry !== undefined),
	) as Partial<T>;
}
