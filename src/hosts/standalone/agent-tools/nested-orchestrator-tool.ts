import type { INode } from 'n8n-workflow';
import type { CompiledTool } from '../../../tools/agent-tool';
import { NestedAgentUnavailableError } from '../../../errors/nested-agent-unavailable-error';
import { toolDescriptionError } from '../../../tools/compile-tool-schema';
import { createNestedAgentTool } from '../../../tools/create-nested-agent-tool';
import { nestedAgentToolSpec } from '../../../tools/nested-agent-tool-spec';
import type { WorkflowNestedAgentRunner } from './workflow-nested-agent-runner';

/**
 * A nested Agent Orchestrator of a workflow as its parent's tool: the spec its modes code
 * builds from its own parameters (a manual description written as an expression resolved),
 * a call running it through `run`.
 *
 * @throws {ToolBuildError} on `$fromAI` problems in its prompt or a failing description expression.
 */
export function nestedOrchestratorTool(
	node: INode,
	resolveExpression: (expression: string) => unknown,
	run: WorkflowNestedAgentRunner | undefined,
): CompiledTool {
	const written = node.parameters.toolDescription;
	let description: string | undefined;
	if (typeof written === 'string' && written.startsWith('=')) {
		try {
			description = String(resolveExpression(written) ?? '');
		} catch (error) {
			throw toolDescriptionError(node.name, error);
		}
	}
	return createNestedAgentTool({
		spec: nestedAgentToolSpec(node, { description }),
		resolveExpression,
		run: (prompt, runOptions) => {
			if (!run) return Promise.reject(new NestedAgentUnavailableError(node.name));
			return run(node, prompt, runOptions);
		},
	});
}
