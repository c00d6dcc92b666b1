import { defaultMaxAgentDepth } from '../agent/modes/nested/agent-frame';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import { defaultValidatorConfig } from '../agent/modes/validator/create-validator-state';
import type { NodeParameterGetter } from './node-parameter-getter';

/** The AgentOrchestrator's modes. */
export type AgentMode = 'full' | 'validator' | 'nested';

const agentModes: readonly AgentMode[] = ['full', 'validator', 'nested'];

/**
 * The node's "Mode" (default `full`). Both hosts read it here, so an unknown mode (a
 * workflow from a newer release, a hand-edited export) is the same clear error everywhere.
 *
 * @throws {AgentConfigurationError} for a mode other than full, validator and nested.
 */
export function readAgentMode(get: NodeParameterGetter, nodeName: string): AgentMode {
	const mode = get('mode', 'full');
	if (agentModes.includes(mode as AgentMode)) return mode as AgentMode;
	throw new AgentConfigurationError(
		'mode',
		`Node "${nodeName}" has mode ${JSON.stringify(mode)}; the modes are ${agentModes.join(', ')}.`,
	);
}

/** The validator mode's parameters of an AgentOrchestrator node. */
export interface ValidatorNodeSettings {
	/** The tool (or node) name to call; `undefined`: any connected tool. */
	tool?: string;
	maxAttempts: number;
	validateOnly: boolean;
}

/** Validator mode: "Tool", "Max Attempts", "Validate Only". */
export function readValidatorSettings(get: NodeParameterGetter): ValidatorNodeSettings {
	const tool = String(get('validatorTool', '') ?? '').trim();
	return {
		tool: tool === '' ? undefined : tool,
		maxAttempts: Number(get('maxAttempts', defaultValidatorConfig.maxAttempts)),
		validateOnly: get('validateOnly', defaultValidatorConfig.validateOnly) === true,
	};
}

/** Nested mode: "Max Depth", when it is a usable number (at least 1); otherwise the default applies. */
export function readMaxDepth(get: NodeParameterGetter): number | undefined {
	const maxDepth = Number(get('maxDepth', defaultMaxAgentDepth));
	return Number.isFinite(maxDepth) && maxDepth >= 1 ? maxDepth : undefined;
}
