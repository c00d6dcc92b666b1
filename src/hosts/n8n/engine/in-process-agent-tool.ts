import {
	agentToolFromLangChain,
	type LangChainToolLike,
} from '../../../tools/agent-tool-from-langchain';
import type { AgentTool } from '../../../tools/agent-tool';

/**
 * Adapts a connected tool for the in-process driver, like `agentToolFromLangChain`, except
 * for tools behind a human-review gate (`…HitlTool` nodes, `metadata.gatedToolNodeName`):
 * called in-process those silently return `''` without asking anyone, so here a call
 * returns an error observation saying that review needs the engine driver.
 *
 * @throws {AgentConfigurationError} when the value is not a tool.
 */
export function inProcessAgentTool(tool: unknown): AgentTool {
	const agentTool = agentToolFromLangChain(tool);
	const metadata = (tool as LangChainToolLike).metadata ?? {};
	if (typeof metadata.gatedToolNodeName !== 'string') return agentTool;
	const reviewNode =
		typeof metadata.sourceNodeName === 'string' ? metadata.sourceNodeName : 'the review node';
	return {
		...agentTool,
		invoke: async () => ({
			content:
				`Error: tool '${agentTool.name}' needs human review (node "${reviewNode}"), which only works when n8n's engine runs the tool calls. ` +
				'It was not run. The workflow must set the Agent Orchestrator option "Tool Execution" to "Engine" (not possible while the orchestrator itself runs as a tool).',
			isError: true,
		}),
	};
}
