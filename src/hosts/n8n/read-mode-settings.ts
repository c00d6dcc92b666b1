import { defaultMaxAgentDepth } from '../../agent/modes/nested/agent-frame';
import { defaultValidatorConfig } from '../../agent/modes/validator/create-validator-state';

/**
 * Reads one node parameter, with its default: `getNodeParameter` for an item inside n8n, the
 * workflow-JSON parameter reader in the standalone host. Both hosts read the mode settings
 * through the functions below, so they cannot drift apart.
 */
export type NodeParameterGetter = (name: string, fallback: unknown) => unknown;

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
