import type { AgentTool } from '../../../tools/agent-tool';

/**
 * The tool a validator must call, from what the user wrote in "Tool": a tool name or the
 * node name ("Hash text" for the tool Hash_text). Empty: undefined (any connected tool). A
 * name that matches nothing is returned as written, so the validator's own check reports it
 * with the list of connected tools.
 */
export function resolveValidatorToolName(
	chosen: string | undefined,
	tools: readonly Pick<AgentTool, 'name' | 'sourceNodeName'>[],
): string | undefined {
	const wanted = (chosen ?? '').trim();
	if (wanted === '') return undefined;
	return (
		tools.find((tool) => tool.name === wanted || tool.sourceNodeName === wanted)?.name ?? wanted
	);
}
