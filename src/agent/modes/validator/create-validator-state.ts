import type { ChatMessage, ContentPart } from '../../../chat/types';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import { checkJsonSchema } from '../../../schema/validate-json';
import { emptyUsage } from '../../add-usage';
import type { AgentToolSpec } from '../../agent-state';
import { sanitizeHistory } from '../../sanitize-history';
import type { ValidatorConfig, ValidatorState } from './validator-state';

/** Defaults of the validator settings. */
export const defaultValidatorConfig = {
	maxAttempts: 3,
	validateOnly: false,
} as const satisfies Partial<ValidatorConfig>;

/** What a validator run starts from. */
export interface ValidatorInput {
	config: Partial<ValidatorConfig> & { model: string };
	tools: AgentToolSpec[];
	prompt: string | ContentPart[];
	history?: ChatMessage[];
}

/**
 * Builds the initial state of a validator run.
 *
 * @throws {AgentConfigurationError} when the model or prompt is empty, no tool is
 * connected, the chosen tool is not connected, a tool's parameters schema cannot be
 * compiled (its calls could not be checked), or max attempts is not a positive integer.
 */
export function createValidatorState(input: ValidatorInput): ValidatorState {
	const given = Object.fromEntries(
		Object.entries(input.config).filter(([, value]) => value !== undefined && value !== ''),
	) as Partial<ValidatorConfig>;
	const config = {
		...defaultValidatorConfig,
		...given,
		model: input.config.model.trim(),
	} as ValidatorConfig;
	if (config.model === '')
		throw new AgentConfigurationError(
			'model',
			'The model is empty. Give a model id such as anthropic/claude-sonnet-4.',
		);
	if (!Number.isInteger(config.maxAttempts) || config.maxAttempts < 1) {
		throw new AgentConfigurationError(
			'maxAttempts',
			`Max attempts must be an integer of at least 1; found ${String(config.maxAttempts)}.`,
		);
	}
	const prompt = input.prompt;
	if (typeof prompt === 'string' ? prompt.trim() === '' : prompt.length === 0) {
		throw new AgentConfigurationError(
			'prompt',
			'The prompt is empty. The validator needs a user message to fill the tool call from.',
		);
	}
	const names = input.tools.map((tool) => tool.name);
	if (names.length === 0) {
		throw new AgentConfigurationError(
			'tools',
			'Validator mode needs a tool: connect one (or more) to the Tools input.',
		);
	}
	if (config.toolName !== undefined && !names.includes(config.toolName)) {
		throw new AgentConfigurationError(
			'toolName',
			`Tool '${config.toolName}' is not connected. Connected tools: ${names.join(', ')}.`,
		);
	}
	for (const tool of input.tools) {
		try {
			checkJsonSchema(tool.parameters);
		} catch (error) {
			throw new AgentConfigurationError(
				'tools',
				`Tool '${tool.name}' cannot be validated: ${(error as Error).message}`,
				{ cause: error },
			);
		}
	}
	const messages: ChatMessage[] = [];
	if (config.systemMessage) messages.push({ role: 'system', content: config.systemMessage });
	messages.push(
		...sanitizeHistory((input.history ?? []).filter((message) => message.role !== 'system')),
	);
	messages.push({ role: 'user', content: prompt });
	const tools = input.tools.map(
		({ name, description, parameters, sourceNodeName }): AgentToolSpec =>
			sourceNodeName === undefined
				? { name, description, parameters }
				: { name, description, parameters, sourceNodeName },
	);
	return {
		version: 1,
		kind: 'validator',
		config,
		tools,
		messages,
		attempts: [],
		usage: emptyUsage(),
		status: 'ready',
	};
}
