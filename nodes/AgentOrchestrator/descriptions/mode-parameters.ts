import type { INodeProperties } from 'n8n-workflow';
import { defaultNestedPrompt } from '../../../src/tools/nested-agent-tool-spec';

/**
 * The node's outputs, computed from the mode: a nested agent is a tool of its parent
 * (`ai_tool`), every other mode outputs items (`main`). n8n evaluates this with `$parameter`.
 */
export const modeOutputs = `={{ $parameter.mode === 'nested' ? [{ "type": "ai_tool", "displayName": "Tool" }] : [{ "type": "main" }] }}`;

const validatorOnly = { show: { mode: ['validator'] } };
const nestedOnly = { show: { mode: ['nested'] } };

/** Validator mode: the tool the model must call (empty: any connected tool). */
export const validatorToolParameter: INodeProperties = {
	displayName: 'Tool',
	name: 'validatorTool',
	type: 'string',
	default: '',
	placeholder: 'e.g. Create_contact',
	description:
		'The tool the model must call: its tool name or its node name. Leave empty to let the model choose any connected tool (it must still call one).',
	displayOptions: validatorOnly,
};

/** Validator mode: model calls allowed until the arguments pass. */
export const maxAttemptsParameter: INodeProperties = {
	displayName: 'Max Attempts',
	name: 'maxAttempts',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 3,
	description:
		'How many model calls may try to produce a valid tool call. A text answer, an unknown tool or arguments that fail the schema each use one; the errors are sent back to the model.',
	displayOptions: validatorOnly,
};

/** Validator mode: stop after validation, without running the tool. */
export const validateOnlyParameter: INodeProperties = {
	displayName: 'Validate Only',
	name: 'validateOnly',
	type: 'boolean',
	default: false,
	description:
		'Whether to stop once the arguments are valid, without running the tool (the output then has no result)',
	displayOptions: validatorOnly,
};

/** Nested mode: what the parent's model is told about this agent. */
export const toolDescriptionParameter: INodeProperties = {
	displayName: 'Tool Description',
	name: 'toolDescription',
	type: 'string',
	default: '',
	required: true,
	typeOptions: { rows: 2 },
	placeholder: 'e.g. Researches a topic on the web and returns a short summary with sources',
	description:
		"What this agent does, as the parent agent's model reads it when deciding whether to call it",
	displayOptions: nestedOnly,
};

/** Nested mode: the task, filled by the parent's model through `$fromAI`. */
export const nestedPromptParameter: INodeProperties = {
	displayName: 'Prompt',
	name: 'prompt',
	type: 'string',
	default: defaultNestedPrompt,
	required: true,
	typeOptions: { rows: 3 },
	description:
		"The user message of this agent. Each $fromAI('key', 'description', 'type') in it becomes an argument the parent's model fills in.",
	displayOptions: nestedOnly,
};

/** Nested mode: how deep agents may call agents. */
export const maxDepthParameter: INodeProperties = {
	displayName: 'Max Depth',
	name: 'maxDepth',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 5,
	description:
		'How many agents deep a chain of agents calling agents may go (the outermost counts as 1). A deeper call, or an agent calling itself through the chain, fails with a clear error that the calling model reads.',
	displayOptions: nestedOnly,
};
