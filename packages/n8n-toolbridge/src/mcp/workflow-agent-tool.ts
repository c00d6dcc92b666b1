import {
	runSessionAgent,
	ToolbridgeError,
	toolNameFromNodeName,
	type AgentEvent,
	type WorkflowAgentRun,
	type WorkflowSession,
} from 'n8n-nodes-toolbridge';
import type { McpTool } from './mcp-tool';

/** Options of {@link workflowAgentMcpTool}. */
export interface WorkflowAgentToolOptions {
	/** Names the other tools use; the agent tool's name is made unique among them. */
	takenNames?: Set<string>;
}

/**
 * The workflow's agent itself as one more MCP tool (`toolbridge mcp --expose-agent`): a call
 * runs the whole loop — the agent's model, system message and tools — on the `prompt`
 * argument and answers with the agent's answer. Each tool step is a progress note. The
 * optional `session` argument continues that conversation in the agent's memory sub-node (a
 * busy session is an error result naming SESSION_BUSY).
 */
export function workflowAgentMcpTool(
	session: WorkflowSession,
	agentName: string,
	options: WorkflowAgentToolOptions = {},
): McpTool {
	const { takenNames } = options;
	const { workflow } = session;
	const name = toolNameFromNodeName(agentName, takenNames);
	takenNames?.add(name);
	return {
		name,
		description: `Runs the agent "${agentName}" of workflow "${workflow.name ?? 'workflow'}" with its own model and tools on a task, and returns its answer.`,
		inputSchema: {
			type: 'object',
			properties: {
				prompt: {
					type: 'string',
					description: 'The task or question for the agent, as a user would write it',
				},
				session: {
					type: 'string',
					description:
						"A conversation id: calls with the same one continue one conversation in the agent's memory (omit for a one-off task)",
					minLength: 1,
					maxLength: 256,
				},
			},
			required: ['prompt'],
			additionalProperties: false,
		},
		async call(args, { signal, progress }) {
			const prompt = args.prompt;
			if (typeof prompt !== 'string' || prompt.trim() === '') {
				return {
					content: `Error: invalid arguments for tool "${name}": "prompt" must be a non-empty string.`,
					isError: true,
				};
			}
			const sessionId = args.session;
			if (
				sessionId !== undefined &&
				(typeof sessionId !== 'string' || sessionId.trim() === '' || sessionId.length > 256)
			)
				return {
					content: `Error: invalid arguments for tool "${name}": "session" must be a conversation id of 1–256 characters.`,
					isError: true,
				};
			let steps = 0;
			let run: WorkflowAgentRun;
			try {
				const onEvent = (event: AgentEvent): void => {
					if (event.type !== 'step-end') return;
					steps += 1;
					progress(
						`step ${steps}: ${event.step.tool} ${event.step.isError ? 'failed' : 'done'} [${Math.round(event.step.durationMs)} ms]`,
					);
				};
				run = await runSessionAgent(
					{ ...session, signal, onEvent },
					{ agent: agentName, prompt, sessionId },
				);
			} catch (error) {
				const message =
					ToolbridgeError.isInstance(error) || error instanceof Error
						? error.message
						: String(error);
				return { content: `Error: agent "${agentName}" failed: ${message}`, isError: true };
			}
			if (run.mode === 'validator') {
				const { tool, arguments: toolArguments, result, attempts } = run.validator;
				return {
					content: JSON.stringify({ tool, arguments: toolArguments, result, attempts }),
					isError: false,
					data: run.validator,
				};
			}
			return { content: run.result.output, isError: false, data: run.result };
		},
	};
}
