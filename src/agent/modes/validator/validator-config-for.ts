import type { AgentTool } from '../../../tools/agent-tool';
import { modelSettingsOf, type ModelSettings } from '../../model-options';
import type { ValidatorInput } from './create-validator-state';

/**
 * A validator run's config from an agent node's settings: every model setting the full loop
 * sends (`modelSettingsOf`: model, server and each option of the model-options table), the
 * system message, and the node's validator parameters ("Tool", "Max Attempts", "Validate
 * Only"; the hosts read them with `readValidatorSettings`). Both hosts' validators (the node in
 * n8n, `toolbridge run` / `runWorkflowAgent`) take theirs from here, so they cannot drift.
 *
 * "Tool" may name a tool or the node behind it ("Hash text" for the tool Hash_text); a name
 * that matches nothing is kept as written, so the validator's own check reports it with
 * the list of connected tools.
 */
export function validatorConfigFor(
	config: ModelSettings & { systemMessage?: string },
	parameters: { tool?: string; maxAttempts?: number; validateOnly?: boolean },
	tools: readonly Pick<AgentTool, 'name' | 'sourceNodeName'>[],
): ValidatorInput['config'] {
	return {
		...modelSettingsOf(config),
		systemMessage: config.systemMessage,
		toolName: validatorToolName(parameters.tool, tools),
		maxAttempts: parameters.maxAttempts,
		validateOnly: parameters.validateOnly,
	};
}

function validatorToolName(
	chosen: string | undefined,
	tools: readonly Pick<AgentTool, 'name' | 'sourceNodeName'>[],
): string | undefined {
	const wanted = (chosen ?? '').trim();
	if (wanted === '') return undefined;
	return (
		tools.find((tool) => tool.name === wanted || tool.sourceNodeName === wanted)?.name ?? wanted
	);
}
